import type { Logger } from '../../ports/logger.js';
import type { BackgroundScheduler } from '../../ports/scheduler.js';

/** A timer this long after the window's end, so one that fires a hair early still finds it due. */
const PAST_DEADLINE_MS = 20;

/**
 * Carries out deletions on time on the instance that was asked: a timer at each undo window's end
 * runs the purge. It is only punctuality: the pending deletion is in the store, so after a
 * restart (the purge runs at start) or on another instance the tick's sweep carries it out.
 */
export class DeletionAlarm implements BackgroundScheduler {
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly purge: () => Promise<unknown>,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await this.running;
  }

  /** Purges at `at` (soon after), in this process. */
  wakeAt(at: Date): void {
    if (this.stopped) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        this.run();
      },
      Math.max(0, at.getTime() - Date.now()) + PAST_DEADLINE_MS,
    );
    timer.unref();
    this.timers.add(timer);
  }

  private run(): void {
    if (this.stopped) return;
    const previous = this.running ?? Promise.resolve();
    const next = previous
      .then(() => this.purge())
      .catch((error: unknown) =>
        this.logger.error('purging deletions past their undo window failed', {
          cause: error instanceof Error ? error.message : String(error),
        }),
      );
    this.running = next;
    void next.finally(() => {
      if (this.running === next) this.running = null;
    });
  }
}
