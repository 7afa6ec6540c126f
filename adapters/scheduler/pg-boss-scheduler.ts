import { PgBoss, type Queue } from 'pg-boss';
import { Unavailable } from '../../domain/errors.js';
import { POSTGRESQL_KEEP_ALIVE } from '../shared/postgresql-keep-alive.js';
import { unreachableDatabase } from '../shared/unreachable-database.js';
import { PgBossWorker } from './pg-boss-worker.js';
import type { Logger } from '../../ports/logger.js';
import type { BackgroundScheduler, RunDispatcher, RunWakeUps, SchedulerWork, WebhookDispatcher } from '../../ports/scheduler.js';
import { defined } from '../../domain/defined.js';

export const TICK_QUEUE = 'porter.tick';
export const RUN_QUEUE = 'porter.run';
export const WEBHOOK_QUEUE = 'porter.webhook';
const DEFAULT_DEADLINE_MS = 60_000;
/** How long stopping waits for the jobs in hand. */
const STOP_GRACE_MS = 10_000;

export interface PgBossSchedulerOptions {
  /** The PostgreSQL every instance shares (the store's database is fine: pg-boss keeps its own schema). */
  readonly connectionString: string;
  /** pg-boss's schema. Default `pgboss`. */
  readonly schema?: string;
  /** When the cluster ticks. Default every minute, the finest a cron schedule in pg-boss goes. */
  readonly tickCron?: string;
  /** Runs this instance executes at once. Default 4. */
  readonly concurrency?: number;
  /** Completion webhooks this instance sends at once. Default 2. */
  readonly webhookConcurrency?: number;
  /** How often idle workers look for jobs. Default 2 s. */
  readonly pollingIntervalSeconds?: number;
  /**
   * How long getting a connection (`acquireMs`) and one statement (`statementMs`) may take before a
   * request that sends jobs (a webhook's runs, a tick) answers 503 instead of waiting. Default 5000 each.
   */
  readonly timeouts?: { readonly statementMs: number; readonly acquireMs: number };
  /**
   * How long one of pg-boss's own statements may go unanswered before its connection is taken for
   * dead and replaced (a server that stopped answering, a connection a firewall forgot): longer
   * than a request's, since its maintenance may wait for another instance's. Default 60000.
   */
  readonly deadlineMs?: number;
  /**
   * Wake-ups shared by every instance: runs sent as jobs wake every instance's idle workers at once,
   * instead of at their next poll. Absent, the workers here are woken and the others poll.
   */
  readonly wakeUps?: RunWakeUps;
  readonly work: SchedulerWork;
  readonly logger: Logger;
}

/**
 * The production scheduler for several instances on one PostgreSQL, built on pg-boss 12: a pg-boss
 * cron schedule puts one tick job a minute into the cluster's queue (pg-boss makes sure several
 * instances do not each add one), whichever instance fetches it ticks; every run a tick or a
 * delivery starts becomes a job that whichever instance is free executes. A retry after its
 * backoff and the next attempt at a completion webhook are jobs held until then (`startAfter`), so
 * they survive restarts. pg-boss re-offers a job whose worker died; the executor's claim on the run
 * (the sender's lease on the webhook) makes a second delivery of a job harmless.
 */
export class PgBossScheduler implements BackgroundScheduler, RunDispatcher {
  private boss: PgBoss | null = null;
  private workers: Array<{ stop(graceMs: number): Promise<void> }> = [];
  private runWorker: PgBossWorker<{ runId: string }> | null = null;
  private unwatch: (() => void) | null = null;

  /** Completion webhooks as jobs on their own queue, any instance sending them. */
  readonly webhooks: WebhookDispatcher = {
    dispatch: (webhookIds, at) =>
      this.send(
        WEBHOOK_QUEUE,
        webhookIds.map((webhookId) => ({ webhookId })),
        at,
      ),
  };

  constructor(private readonly options: PgBossSchedulerOptions) {}

  async start(): Promise<void> {
    if (this.boss) return;
    // pg-boss hands its options to pg's Pool and its clients (pg-boss's types do not list these).
    // Without a client deadline, a worker's poll on a connection the server no longer answers
    // would wait forever; pg's Pool closes a connection whose statement failed.
    const pool = {
      connectionTimeoutMillis: this.timeouts.acquireMs,
      query_timeout: this.options.deadlineMs ?? DEFAULT_DEADLINE_MS,
      ...POSTGRESQL_KEEP_ALIVE,
    };
    const boss = new PgBoss({
      connectionString: this.options.connectionString,
      schema: this.options.schema ?? 'pgboss',
      application_name: 'porter-scheduler',
      ...pool,
    });
    const logger = this.options.logger;
    boss.on('error', (error: Error) => logger.error('pg-boss reported an error', { cause: error.message }));
    await boss.start();
    await ensureQueue(boss, { name: TICK_QUEUE, policy: 'singleton', retryLimit: 0, expireInSeconds: 5 * 60 });
    await ensureQueue(boss, { name: RUN_QUEUE, policy: 'standard', retryLimit: 3, retryDelay: 30, expireInSeconds: 60 * 60 });
    await ensureQueue(boss, { name: WEBHOOK_QUEUE, policy: 'standard', retryLimit: 3, retryDelay: 30, expireInSeconds: 5 * 60 });
    await boss.schedule(TICK_QUEUE, this.options.tickCron ?? '* * * * *', {}, { tz: 'UTC' });
    const worker = <T extends object>(queue: string, concurrency: number, handle: (data: T) => Promise<void>) =>
      new PgBossWorker<T>(boss, queue, handle, {
        pollingIntervalMs: (this.options.pollingIntervalSeconds ?? 2) * 1_000,
        logger,
        concurrency,
      });
    this.workers.push(worker(TICK_QUEUE, 1, () => this.options.work.tick().then(() => undefined)));
    this.runWorker = worker<{ runId: string }>(RUN_QUEUE, this.options.concurrency ?? 4, ({ runId }) =>
      this.options.work.executeRun(runId),
    );
    this.workers.push(this.runWorker);
    this.workers.push(
      worker<{ webhookId: string }>(WEBHOOK_QUEUE, this.options.webhookConcurrency ?? 2, ({ webhookId }) =>
        this.options.work.deliverWebhook(webhookId),
      ),
    );
    this.boss = boss;
    try {
      this.unwatch = (await this.options.wakeUps?.watch(() => this.wake())) ?? null;
    } catch (error) {
      logger.warn('run wake-ups are unavailable; workers find jobs by polling', {
        cause: error instanceof Error ? error.message : String(error),
      });
    }
  }

  async dispatch(runIds: ReadonlyArray<string>, at?: Date): Promise<void> {
    await this.send(
      RUN_QUEUE,
      runIds.map((runId) => ({ runId })),
      at,
    );
    if (at && at.getTime() > Date.now()) return;
    // Idle workers here fetch now; jobs beyond them wake the other instances' (else their polls find them).
    const room = this.runWorker?.room ?? 0;
    this.wake();
    if (runIds.length > room) void this.options.wakeUps?.signal();
  }

  /** Idle run workers fetch now rather than at their next poll (a slot's tick just ended, jobs were sent). */
  wake(): void {
    this.runWorker?.wake();
  }

  private async send(queue: string, jobs: ReadonlyArray<object>, at: Date | undefined): Promise<void> {
    if (!this.boss) throw new Error('the pg-boss scheduler is not started');
    const boss = this.boss;
    for (let i = 0; i < jobs.length; i += 500) {
      await this.inTime(
        boss.insert(
          queue,
          jobs.slice(i, i + 500).map((data) => ({ data, ...defined({ startAfter: at }) })),
        ),
      );
    }
  }

  /** Sends one tick job now, as the cron schedule would (the tick endpoint of an operator's tools). */
  async tickNow(): Promise<void> {
    if (!this.boss) throw new Error('the pg-boss scheduler is not started');
    await this.inTime(this.boss.send(TICK_QUEUE, {}));
  }

  private get timeouts(): { statementMs: number; acquireMs: number } {
    return this.options.timeouts ?? { statementMs: 4_000, acquireMs: 4_000 };
  }

  /**
   * A job sent from a request answers within the database timeouts or is `Unavailable`, as is a
   * send the driver gave up on (no connection in time, a connection lost). A send that completes
   * later is harmless: the run sweep re-dispatches runs whose job went missing, and the executor's
   * claim makes a second job for one run a no-op.
   */
  private async inTime<T>(work: Promise<T>): Promise<T> {
    const { statementMs, acquireMs } = this.timeouts;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Unavailable('The scheduler database did not answer in time')), statementMs + acquireMs);
    });
    try {
      return await Promise.race([work, late]);
    } catch (error) {
      const unreachable = unreachableDatabase(error);
      if (unreachable === null) throw error;
      const unavailable = new Unavailable(`The scheduler database ${unreachable}`);
      Object.defineProperty(unavailable, 'cause', { value: error, enumerable: false });
      throw unavailable;
    } finally {
      clearTimeout(timer);
    }
  }

  async stop(): Promise<void> {
    const boss = this.boss;
    this.boss = null;
    this.unwatch?.();
    this.unwatch = null;
    this.runWorker = null;
    const workers = this.workers.splice(0);
    await Promise.all(workers.map((worker) => worker.stop(STOP_GRACE_MS)));
    if (boss) await boss.stop({ graceful: true, timeout: STOP_GRACE_MS });
  }
}

async function ensureQueue(boss: PgBoss, queue: Queue): Promise<void> {
  if (!(await boss.getQueue(queue.name))) await boss.createQueue(queue.name, queue);
}
