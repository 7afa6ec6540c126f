import type { ContainerModule } from 'inversify';
import { get, porterModule, token, TOKENS } from '../tokens.js';
import { RUN_TOKENS } from './runs-tokens.js';
import { SCHEDULER_TOKENS } from './scheduler-tokens.js';
import { TICK_TOKENS } from './tick-tokens.js';
import type { PorterConfig } from '../config/config-schema.js';
import type { BackgroundScheduler, RunDispatcher, RunWakeUps, WebhookDispatcher } from '../../ports/scheduler.js';
import { InProcessDispatcher } from '../../adapters/scheduler/in-process-dispatcher.js';
import { IntervalTicker } from '../../adapters/scheduler/interval-ticker.js';
import { SharedRunQueue } from '../../adapters/scheduler/shared-run-queue.js';
import { FeedWakeUps, RUN_WAKE_UPS_FEED, SCHEDULE_WAKE_UPS_FEED } from '../../adapters/scheduler/feed-wake-ups.js';
import { QueuedRuns } from '../../application/runs/queued-runs.js';
import type { PgBossFactory } from '../integrations/load-integrations.js';
import { defined } from '../../domain/defined.js';

/** Completion webhooks one instance sends at once with the in-process dispatcher. */
export const IN_PROCESS_WEBHOOKS = 2;
/** How often an instance with room looks for queued runs without a wake-up (without pg-boss). */
const QUEUED_RUNS_POLL_MS = 2_000;
/** How long an instance leaves a run it offered its executor that stayed queued (its automation was full). */
const QUEUED_RUNS_RETAKE_MS = 30_000;

/** Which scheduler a configuration gets: as configured, else interval in development and external in production. */
export function schedulerKind(config: PorterConfig): 'interval' | 'external' | 'pg-boss' {
  return config.scheduler ?? (config.development ? 'interval' : 'external');
}

/** The pg-boss scheduler's binding (resolved only with `scheduler: 'pg-boss'`). */
const PG_BOSS = token<BackgroundScheduler & RunDispatcher & { readonly webhooks: WebhookDispatcher; wake(): void }>('PgBossScheduler');
/** The store's queued runs, taken by every instance with room (without pg-boss). */
const IN_PROCESS = token<SharedRunQueue>('SharedRunQueue');
/** "Queued runs are waiting", to every instance on the store (absent on a host's Store without feeds). */
const WAKE_UPS = token<RunWakeUps | null>('RunWakeUps');
/** Completion webhooks sent from this process (without pg-boss). */
const IN_PROCESS_SENDER = token<InProcessDispatcher>('InProcessWebhookDispatcher');

/**
 * What drives ticks and where runs execute. `interval`: a ticker on every instance, waking at each
 * slot. `external`: only `POST /tick` (an external cron) drives ticks. Both keep queued runs in the
 * store, where every instance with room takes them. `pg-boss`: the same ticker on every instance
 * (and a pg-boss cron tick a minute as a backstop), runs are pg-boss jobs any instance executes
 * (pg-boss itself is loaded at boot, only then). `POST /tick` answers in every mode.
 */
export function schedulerModule(pgBoss: PgBossFactory | null): ContainerModule {
  return porterModule((bind) => {
    bind.singleton(PG_BOSS, (ctx) => {
      const config = get(ctx, TOKENS.Config);
      if (!pgBoss) throw new Error('pg-boss was not loaded at boot');
      return pgBoss({
        connectionString: config.databaseUrl,
        timeouts: config.databaseTimeouts,
        concurrency: config.runConcurrency,
        work: get(ctx, TICK_TOKENS.SchedulerWork),
        logger: get(ctx, TOKENS.Logger),
        ...defined({ wakeUps: get(ctx, WAKE_UPS) ? get(ctx, WAKE_UPS)! : undefined }),
      });
    });
    bind.singleton(WAKE_UPS, (ctx) => {
      const store = get(ctx, TOKENS.Store);
      return store.feeds ? new FeedWakeUps(store.feeds<never>(RUN_WAKE_UPS_FEED), get(ctx, TOKENS.Logger), 'queued runs') : null;
    });
    bind.singleton(SCHEDULER_TOKENS.ScheduleWakeUps, (ctx) => {
      const store = get(ctx, TOKENS.Store);
      return store.feeds ? new FeedWakeUps(store.feeds<never>(SCHEDULE_WAKE_UPS_FEED), get(ctx, TOKENS.Logger), 'an armed schedule') : null;
    });
    bind.singleton(IN_PROCESS, (ctx) => {
      const wakeUps = get(ctx, WAKE_UPS);
      return new SharedRunQueue(
        (runId) => get(ctx, TICK_TOKENS.SchedulerWork).executeRun(runId),
        new QueuedRuns(get(ctx, RUN_TOKENS.RunBook), get(ctx, TOKENS.Clock)),
        {
          concurrency: get(ctx, TOKENS.Config).runConcurrency,
          pollMs: QUEUED_RUNS_POLL_MS,
          retakeAfterMs: QUEUED_RUNS_RETAKE_MS,
          logger: get(ctx, TOKENS.Logger),
          ...defined({ wakeUps: wakeUps || undefined }),
        },
      );
    });
    bind.singleton(SCHEDULER_TOKENS.RunDispatcher, (ctx) =>
      schedulerKind(get(ctx, TOKENS.Config)) === 'pg-boss' ? get(ctx, PG_BOSS) : get(ctx, IN_PROCESS),
    );
    bind.singleton(
      IN_PROCESS_SENDER,
      (ctx) =>
        new InProcessDispatcher(
          (webhookId) => get(ctx, TICK_TOKENS.SchedulerWork).deliverWebhook(webhookId),
          IN_PROCESS_WEBHOOKS,
          get(ctx, TOKENS.Logger),
          'a completion webhook',
        ),
    );
    bind.singleton(SCHEDULER_TOKENS.WebhookDispatcher, (ctx) =>
      schedulerKind(get(ctx, TOKENS.Config)) === 'pg-boss' ? get(ctx, PG_BOSS).webhooks : get(ctx, IN_PROCESS_SENDER),
    );

    bind(TOKENS.Background).toDynamicValue((ctx) => {
      const config = get(ctx, TOKENS.Config);
      const kind = schedulerKind(config);
      if (kind === 'external') return { start: async () => {}, stop: async () => {} };
      // First, so it is the first stopped: no tick then hands runs to an engine already stopped.
      // With pg-boss, the slot's jobs are fetched as soon as the tick ends, not at the next poll.
      const afterTick = kind === 'pg-boss' ? () => get(ctx, PG_BOSS).wake() : undefined;
      return new IntervalTicker(
        get(ctx, TICK_TOKENS.SchedulerWork),
        config.tickIntervalSeconds * 1000,
        get(ctx, TOKENS.Logger),
        afterTick,
        get(ctx, SCHEDULER_TOKENS.ScheduleWakeUps),
      );
    });
    bind(TOKENS.Background).toDynamicValue((ctx) => {
      const config = get(ctx, TOKENS.Config);
      const kind = schedulerKind(config);
      if (kind === 'pg-boss') return get(ctx, PG_BOSS);
      // Without pg-boss, this instance takes its share of the queued runs in the store.
      return { start: () => get(ctx, IN_PROCESS).start(), stop: async () => {} };
    });
    // Stopped after the ticker: no new runs are taken, and the ones in flight are let go, put back in the queue for the others.
    bind(TOKENS.Background).toDynamicValue((ctx) => ({
      start: async () => {},
      stop: async () => {
        await get(ctx, RUN_TOKENS.ExecuteRun).close();
        await get(ctx, IN_PROCESS).stop();
        await get(ctx, IN_PROCESS_SENDER).stop();
      },
    }));
  });
}
