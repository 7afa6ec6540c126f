import type { Job, PgBoss } from 'pg-boss';
import type { Logger } from '../../ports/logger.js';

/**
 * Up to `concurrency` jobs of a pg-boss queue at once, in place of pg-boss's own `work()`: pg-boss
 * 10 left the promise completing (or failing) a job unawaited, so a database that stops answering,
 * or goes away, between fetching a job and completing it rejects that promise unhandled, which ends
 * the process. Here every statement is awaited, a failure is logged, and the worker polls again; a
 * job whose completion was lost stays active until pg-boss expires and retries it. One fetch asks
 * for as many jobs as there is room for, so a high concurrency costs one poll, not one per slot;
 * when a job ends the worker fetches again at once.
 */
export class PgBossWorker<T extends object> {
  private stopping = false;
  private readonly running = new Set<Job<T>>();
  private resumePolling: (() => void) | null = null;
  private readonly loop: Promise<void>;
  private readonly concurrency: number;

  constructor(
    private readonly boss: PgBoss,
    private readonly queue: string,
    private readonly handle: (data: T) => Promise<void>,
    private readonly options: { readonly pollingIntervalMs: number; readonly logger: Logger; readonly concurrency?: number },
  ) {
    this.concurrency = Math.max(1, options.concurrency ?? 1);
    this.loop = this.poll();
  }

  /** How many more jobs it would take now. */
  get room(): number {
    return this.concurrency - this.running.size;
  }

  /** Looks for jobs now instead of at the next poll (some were just sent), when it has room. */
  wake(): void {
    this.resumePolling?.();
  }

  /**
   * Stops fetching and waits up to `graceMs` for the jobs in hand; those still running then are
   * failed, so pg-boss retries them elsewhere (the executor's claim makes a second delivery harmless).
   */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    this.resumePolling?.();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
    const outcome = await Promise.race([this.loop.then(() => 'done' as const), late]);
    clearTimeout(timer);
    if (outcome === 'late')
      for (const unfinished of [...this.running])
        await this.settle('fail', unfinished, { message: 'the instance running the job stopped' });
  }

  private async poll(): Promise<void> {
    const working: Array<Promise<void>> = [];
    while (!this.stopping) {
      if (this.room <= 0) {
        await this.wait(null);
        continue;
      }
      // pg-boss's fetch answers no jobs, never an error, when the database fails.
      const jobs = await this.boss.fetch<T>(this.queue, { batchSize: this.room }).catch(() => [] as Job<T>[]);
      for (const job of jobs) {
        this.running.add(job);
        const work = this.work(job).finally(() => {
          this.running.delete(job);
          working.splice(working.indexOf(work), 1);
          this.resumePolling?.();
        });
        working.push(work);
      }
      if (jobs.length === 0 || this.room <= 0) await this.wait(jobs.length === 0 ? this.options.pollingIntervalMs : null);
    }
    await Promise.all(working);
  }

  private async work(job: Job<T>): Promise<void> {
    try {
      await this.handle(job.data);
    } catch (error) {
      await this.settle('fail', job, { message: error instanceof Error ? error.message : String(error) });
      return;
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

  /** Waits for a wake-up, a job ending, stopping, or (with a duration) the next poll. */
  private wait(ms: number | null): Promise<void> {
    return new Promise((resolve) => {
      const resume = () => {
        if (timer) clearTimeout(timer);
        this.resumePolling = null;
        resolve();
      };
      const timer = ms === null ? null : setTimeout(resume, ms);
      this.resumePolling = resume;
    });
  }
}
