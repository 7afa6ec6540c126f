import type { Logger } from '../../ports/logger.js';
import type { BackgroundScheduler, RunDispatcher, WebhookDispatcher } from '../../ports/scheduler.js';
import { DelayedHandOvers } from './delayed-hand-overs.js';

/**
 * Executes work (runs, completion webhooks) in this process, a bounded number at a time. Work
 * handed over for later waits on a timer. Work still queued or waiting here when the process stops
 * is not lost: its records stay as they were, and the sweep hands it out again.
 */
export class InProcessDispatcher implements RunDispatcher, WebhookDispatcher, BackgroundScheduler {
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();
  private readonly delayed = new DelayedHandOvers();
  private active = 0;
  private stopped = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly execute: (id: string) => Promise<void>,
    private readonly concurrency: number,
    private readonly logger: Logger,
    /** What the work is, for logs. */
    private readonly what = 'a run',
  ) {}

  async dispatch(ids: ReadonlyArray<string>, at?: Date): Promise<void> {
    if (this.stopped) return;
    if (this.delayed.defer(at, () => void this.dispatch(ids))) return;
    for (const id of ids) {
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
    this.delayed.clear();
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
          this.logger.error(`${this.what} failed to execute`, { id, cause: error instanceof Error ? error.message : String(error) }),
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
