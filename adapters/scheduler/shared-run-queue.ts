import type { Logger } from '../../ports/logger.js';
import type { BackgroundScheduler, QueuedRunSource, RunDispatcher, RunWakeUps } from '../../ports/scheduler.js';
import { DelayedHandOvers } from './delayed-hand-overs.js';

export interface SharedRunQueueOptions {
  /** Runs this instance executes at once. */
  readonly concurrency: number;
  /** How often an instance with room looks for queued runs when no wake-up came. */
  readonly pollMs: number;
  /**
   * How long this instance leaves a run it took and that is still queued (its automation was
   * full, another instance claimed it) before taking it again, unless it is handed over anew.
   */
  readonly retakeAfterMs: number;
  /** Wake-ups shared by every instance; absent, only the polls find runs queued elsewhere. */
  readonly wakeUps?: RunWakeUps;
  readonly logger: Logger;
}

/**
 * Executes runs without a job engine, spreading them over every instance: a queued run lives in
 * the store, and each instance takes as many as it has room for. A hand-over (a tick's slot, a
 * delivery, a retry now due) is taken here up to the room this instance has; the rest are left
 * queued, and a wake-up tells every instance to take them, which they also do on their polls and
 * whenever one of their runs ends. So a slot of 200 runs executes on every free instance at once,
 * and runs queued when an instance dies are taken by the others at once (they never left the
 * store). Taking a run is only offering it to the executor here: the executor's claim decides who
 * runs it, exactly once.
 */
export class SharedRunQueue implements RunDispatcher, BackgroundScheduler {
  private readonly local: string[] = [];
  /** Runs queued or executing here. */
  private readonly held = new Set<string>();
  /** When this instance last took each run (left alone for `retakeAfterMs` unless handed over). */
  private readonly taken = new Map<string, number>();
  private readonly delayed = new DelayedHandOvers();
  private active = 0;
  private started = false;
  private stopped = false;
  private pulling: Promise<void> | null = null;
  private pullAgain = false;
  /** The last look found as many runs as there was room for: more may wait. */
  private moreWaiting = false;
  private poller: NodeJS.Timeout | null = null;
  private unwatch: (() => void) | null = null;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly execute: (runId: string) => Promise<void>,
    private readonly source: QueuedRunSource,
    private readonly options: SharedRunQueueOptions,
  ) {}

  async dispatch(ids: ReadonlyArray<string>, at?: Date): Promise<void> {
    if (this.stopped) return;
    if (this.delayed.defer(at, () => void this.dispatch(ids))) return;
    for (const id of ids) this.taken.delete(id);
    const fresh = ids.filter((id) => !this.held.has(id));
    const mine = fresh.slice(0, Math.max(0, this.room()));
    this.take(mine);
    if (fresh.length > mine.length) {
      // More than this instance has room for: everyone with room takes the rest.
      this.moreWaiting = true;
      void this.options.wakeUps?.signal();
    }
    // Start on a later turn, so whoever dispatched (a tick, a delivery) answers first.
    setImmediate(() => this.pump());
  }

  async start(): Promise<void> {
    if (this.started || this.stopped) return;
    this.started = true;
    this.poller = setInterval(() => this.pull(), this.options.pollMs);
    this.poller.unref();
    try {
      // A wake-up may mean runs this instance left alone became takeable (their turn came).
      const unwatch = await this.options.wakeUps?.watch(() => {
        this.taken.clear();
        this.pull();
      });
      if (this.stopped) unwatch?.();
      else this.unwatch = unwatch ?? null;
    } catch (error) {
      this.options.logger.warn('queued-run wake-ups are unavailable; instances find runs by polling', {
        cause: error instanceof Error ? error.message : String(error),
      });
    }
    this.pull();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
    this.unwatch?.();
    this.unwatch = null;
    this.delayed.clear();
    for (const id of this.local.splice(0)) this.held.delete(id);
    await this.pulling;
    await this.idle();
  }

  /** Resolves when nothing is queued or executing here (tests and benches wait on it). */
  idle(): Promise<void> {
    if (this.active === 0 && this.local.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private room(): number {
    return this.options.concurrency - this.active - this.local.length;
  }

  private take(ids: ReadonlyArray<string>): void {
    const now = Date.now();
    for (const id of ids) {
      this.held.add(id);
      this.taken.set(id, now);
      this.local.push(id);
    }
  }

  /**
   * Looks for queued runs in the store while this instance has room; one look at a time. (Before
   * `start`, too: runs handed over beyond the room are then found as this instance's runs end.)
   */
  private pull(): void {
    if (this.stopped) return;
    if (this.pulling) {
      this.pullAgain = true;
      return;
    }
    const room = this.room();
    if (room <= 0) return;
    this.pulling = this.look(room)
      .catch((error: unknown) =>
        this.options.logger.warn('looking for queued runs failed', { cause: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => {
        this.pulling = null;
        if (this.pullAgain) {
          this.pullAgain = false;
          this.pull();
        }
      });
  }

  private async look(room: number): Promise<void> {
    const now = Date.now();
    for (const [id, at] of this.taken) if (at + this.options.retakeAfterMs <= now) this.taken.delete(id);
    const skip = new Set([...this.held, ...this.taken.keys()]);
    const ids = await this.source.pick(room, skip);
    if (this.stopped) return;
    this.moreWaiting = ids.length >= room;
    this.take(ids.filter((id) => !this.held.has(id)).slice(0, Math.max(0, this.room())));
    this.pump();
  }

  private pump(): void {
    while (!this.stopped && this.active < this.options.concurrency && this.local.length > 0) {
      const id = this.local.shift()!;
      this.active += 1;
      this.execute(id)
        .catch((error: unknown) =>
          this.options.logger.error('a run failed to execute', { id, cause: error instanceof Error ? error.message : String(error) }),
        )
        .finally(() => {
          this.active -= 1;
          this.held.delete(id);
          this.pump();
          if (this.moreWaiting) this.pull();
          this.settleIdle();
        });
    }
    this.settleIdle();
  }

  private settleIdle(): void {
    if (this.active === 0 && this.local.length === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
