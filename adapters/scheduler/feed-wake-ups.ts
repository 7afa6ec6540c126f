import type { FeedSet } from '../../ports/feeds.js';
import type { Logger } from '../../ports/logger.js';
import type { WakeUps } from '../../ports/scheduler.js';

/** The feed namespaces the wake-ups travel on: queued runs, and armed schedules. */
export const RUN_WAKE_UPS_FEED = 'porter-runs';
export const SCHEDULE_WAKE_UPS_FEED = 'porter-schedules';
const KEY = 'wake';

/**
 * A wake-up sent to every instance on the store's feeds (PostgreSQL: one NOTIFY, heard on the
 * LISTEN connection each instance keeps; SQLite and memory: within the process). A signal that
 * fails is logged and dropped: the instances' polls and ticks find the work a little later.
 */
export class FeedWakeUps implements WakeUps {
  constructor(
    private readonly feed: FeedSet<never>,
    private readonly logger: Logger,
    /** What the wake-up says, for the log. */
    private readonly what: string,
  ) {}

  async signal(): Promise<void> {
    try {
      await this.feed.signal(KEY);
    } catch (error) {
      this.logger.warn(`telling other instances about ${this.what} failed; they find out a little later`, {
        cause: error instanceof Error ? error.message : String(error),
      });
    }
  }

  watch(wake: () => void): Promise<() => void> {
    return this.feed.watch(KEY, wake);
  }
}
