import type { Clock } from '../../ports/clock.js';
import type { ThreadBook } from './thread-book.js';
import type { ThreadWaits } from './thread-waits.js';
import type { TurnHub } from './turn-hub.js';
import type { TurnFeeds } from './turn-settings.js';

/**
 * What both ends of a stop are built from alike (the stopper, and the lease of the turn it stops):
 * the thread the stop is written on, the feeds that wake the turn's instance, and the clock.
 */
export interface StopDeps {
  readonly threads: ThreadBook;
  readonly feeds: TurnFeeds;
  readonly clock: Clock;
}

/** What TurnStopper is built from. */
export interface TurnStopperDeps extends StopDeps {
  readonly hub: TurnHub;
  readonly waits: ThreadWaits;
  readonly settings: { readonly stopWaitMs: number };
}

/**
 * Stops the turn in flight on a thread wherever it runs, cooperatively, as runs stop: the request
 * is written on the thread (so it holds even if a wake-up is lost), the turn's instance is woken,
 * and the answer waits for the turn to end (its partial answer saved) or for `stopWaitMs`.
 */
export class TurnStopper {
  constructor(private readonly deps: TurnStopperDeps) {}

  /** Asks the turn in flight to stop; its id, or null when no turn was in flight. */
  async request(threadId: string): Promise<string | null> {
    const seen: { turnId: string | null } = { turnId: null };
    await this.deps.threads.update(threadId, (thread) => {
      const turn = thread.turnInFlight(this.deps.clock.now().toISOString());
      seen.turnId = turn?.id ?? null;
      return turn ? thread.requestStop(turn.id) : null;
    });
    const local = this.deps.hub.find(threadId);
    local?.stop();
    if (seen.turnId) await this.deps.feeds.signals.signal(seen.turnId);
    return seen.turnId ?? (local ? 'here' : null);
  }

  /** Resolves once the turn `turnId` no longer holds the thread (or after `stopWaitMs`). */
  async ended(threadId: string, turnId: string): Promise<void> {
    await this.deps.hub.settled(threadId, this.deps.settings.stopWaitMs);
    await this.deps.waits.until(
      threadId,
      async () => {
        const loaded = await this.deps.threads.find(threadId);
        return !loaded || loaded.thread.turnInFlight(this.deps.clock.now().toISOString())?.id !== turnId;
      },
      { timeoutMs: this.deps.settings.stopWaitMs },
    );
  }

  /** Stops the thread's turn and waits for its end; false when none was in flight. */
  async stop(threadId: string): Promise<boolean> {
    const turnId = await this.request(threadId);
    if (!turnId) return false;
    await this.ended(threadId, turnId);
    return true;
  }
}
