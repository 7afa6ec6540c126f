import type { Logger } from '../../ports/logger.js';
import type { BackgroundScheduler, RunDispatcher } from '../../ports/scheduler.js';

/**
 * Executes runs in this process, a bounded number at a time. Runs still queued here when the
 * process stops are not lost: their records stay queued and the sweep hands them out again.
 */
export class InProcessDispatcher implements RunDispatcher, BackgroundScheduler {
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();
  private active = 0;
  private stopped = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly execute: (runId: string) => Promise<void>,
    private readonly concurrency: number,
    private readonly logger: Logger,
  ) {}

  async dispatch(runIds: ReadonlyArray<string>): Promise<void> {
    if (this.stopped) return;
    for (const id of runIds) {
      if (this.queued.has(id)) continue;
      this.queued.add(id);
      this.queue.push(id);
    }
    // Start on a later turn, so whoever dispatched (a tick, a delivery) answers first.
    setImmediate(() => this.pump());
  }

  async start(): Promise<void> {}

  async stop(): Promise<void> {
    this.stopped = true;
    this.queue.length = 0;
    this.queued.clear();
    await this.idle();
  }

  /** Resolves when nothing is queued or executing here (tests and benches wait on it). */
  idle(): Promise<void> {
    if (this.active === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (!this.stopped && this.active < this.concurrency && this.queue.length > 0) {
      const id = this.queue.shift()!;
      this.queued.delete(id);
      this.active += 1;
      this.execute(id)
        .catch((error: unknown) =>
          this.logger.error('a run failed to execute', { runId: id, cause: error instanceof Error ? error.message : String(error) }),
        )
        .finally(() => {
          this.active -= 1;
          this.pump();
          if (this.active === 0 && this.queue.length === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
        });
    }
    if (this.active === 0 && this.queue.length === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
