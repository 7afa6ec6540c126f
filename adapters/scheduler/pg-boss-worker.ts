import type { Job, PgBoss } from 'pg-boss';
import type { Logger } from '../../ports/logger.js';

/**
 * One worker slot on a pg-boss queue, in place of pg-boss's own `work()`: pg-boss 10 left the
 * promise completing (or failing) a job unawaited, so a database that stops answering, or goes
 * away, between fetching a job and completing it rejects that promise unhandled, which ends the
 * process. Here every statement is awaited, a failure is logged, and the slot polls again; a job
 * whose completion was lost stays active until pg-boss expires and retries it.
 */
export class PgBossWorker<T extends object> {
  private stopping = false;
  private running: Job<T> | null = null;
  private resumePolling: (() => void) | null = null;
  private readonly loop: Promise<void>;

  constructor(
    private readonly boss: PgBoss,
    private readonly queue: string,
    private readonly handle: (data: T) => Promise<void>,
    private readonly options: { readonly pollingIntervalMs: number; readonly logger: Logger },
  ) {
    this.loop = this.poll();
  }

  /**
   * Stops fetching and waits up to `graceMs` for the job in hand; one still running then is failed,
   * so pg-boss retries it elsewhere (the executor's claim makes a second delivery harmless).
   */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    this.resumePolling?.();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
    const outcome = await Promise.race([this.loop.then(() => 'done' as const), late]);
    clearTimeout(timer);
    const unfinished = this.running;
    if (outcome === 'late' && unfinished) await this.settle('fail', unfinished, { message: 'the instance running the job stopped' });
  }

  private async poll(): Promise<void> {
    while (!this.stopping) {
      // pg-boss's fetch answers no jobs, never an error, when the database fails.
      const [job] = await this.boss.fetch<T>(this.queue, { batchSize: 1 }).catch(() => []);
      if (job) await this.work(job);
      else await this.wait();
    }
  }

  private async work(job: Job<T>): Promise<void> {
    this.running = job;
    try {
      await this.handle(job.data);
    } catch (error) {
      await this.settle('fail', job, { message: error instanceof Error ? error.message : String(error) });
      return;
    } finally {
      this.running = null;
    }
    await this.settle('complete', job);
  }

  private async settle(how: 'complete' | 'fail', job: Job<T>, data?: object): Promise<void> {
    try {
      await (how === 'complete' ? this.boss.complete(this.queue, job.id) : this.boss.fail(this.queue, job.id, data ?? {}));
    } catch (error) {
      this.options.logger.warn(`pg-boss could not ${how} a job; it is retried once it expires`, {
        queue: this.queue,
        job: job.id,
        cause: error instanceof Error ? error.message : String(error),
      });
    }
  }

  private wait(): Promise<void> {
    return new Promise((resolve) => {
      const resume = () => {
        clearTimeout(timer);
        this.resumePolling = null;
        resolve();
      };
      const timer = setTimeout(resume, this.options.pollingIntervalMs);
      this.resumePolling = resume;
    });
  }
}
