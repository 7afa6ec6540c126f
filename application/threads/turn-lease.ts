import type { Logger } from '../../ports/logger.js';
import type { LiveTurn } from './turn-hub.js';
import type { StopDeps } from './turn-stopper.js';
import type { TurnFeeds } from './turn-settings.js';

/**
 * A watch on a turn's stop signal begun before the turn took its thread: a stop can name the turn
 * only once it holds the thread, so with this watch no stop can come unheard, and the lease need
 * not read the thread when it begins (unless the signal rang meanwhile).
 */
export interface WatchAhead {
  /** The lease's from now: later signals call `look`. Null when the watch lapsed (the lease then watches anew). */
  take(look: () => void): { readonly rang: boolean; readonly unwatch: () => void } | null;
  /** The turn does not run: the watch ends. */
  drop(): void;
}

/**
 * Begins watching `turnId`'s signal ahead of its start. A watch neither taken nor dropped (an
 * admission path that forgot it) ends by itself after `lapseMs`.
 */
export async function watchAhead(feeds: TurnFeeds, turnId: string, lapseMs: number): Promise<WatchAhead> {
  let rang = false;
  let look: (() => void) | null = null;
  let ended = false;
  const unwatchNow = await feeds.signals.watch(turnId, () => (look ? look() : (rang = true)));
  const unwatch = () => {
    if (ended) return;
    ended = true;
    clearTimeout(lapse);
    unwatchNow();
  };
  const lapse = setTimeout(unwatch, lapseMs);
  lapse.unref?.();
  return {
    take: (taker) => {
      if (ended) return null;
      clearTimeout(lapse);
      look = taker;
      return { rang, unwatch };
    },
    drop: unwatch,
  };
}

/** What TurnLease is built from. */
export interface TurnLeaseDeps extends StopDeps {
  readonly logger: Logger;
  readonly settings: { readonly leaseMs: number };
}

/**
 * What the instance running a turn does besides the turn: it renews the turn's lease on its thread
 * every third of the lease (so the thread is freed soon after the instance dies, never while it
 * lives), and it watches for a stop asked on any instance: woken by the turn's signal, or at the
 * latest at the next renewal, it stops the turn cooperatively. A turn whose thread was deleted, or
 * whose lease another instance judged lapsed and took over, is aborted.
 */
export class TurnLease {
  constructor(private readonly deps: TurnLeaseDeps) {}

  /**
   * Starts renewing and watching; the answer ends both. `ahead`: the watch the turn began before it
   * took its thread, taken over (no read of the thread unless it rang). `heard`: called each time the
   * turn's signal rings (or may have rung unheard), which a stop asked and a reader beginning to
   * follow the turn from another instance both do.
   */
  async hold(
    threadId: string,
    turnId: string,
    live: LiveTurn,
    ahead?: WatchAhead,
    heard: () => void = () => undefined,
  ): Promise<() => void> {
    const look = () => {
      heard();
      void this.look(threadId, turnId, live).catch((error: unknown) =>
        this.deps.logger.warn('a stop signal could not be read; the next renewal looks again', { threadId, cause: String(error) }),
      );
    };
    const taken = ahead?.take(look) ?? null;
    const unwatch = taken ? taken.unwatch : await this.deps.feeds.signals.watch(turnId, look);
    const heartbeat = setInterval(() => void this.renew(threadId, turnId, live), Math.max(50, Math.floor(this.deps.settings.leaseMs / 3)));
    heartbeat.unref?.();
    // A stop asked before the watch began (none could be, with a watch begun before the thread was taken, unless it rang).
    if (!taken || taken.rang) look();
    return () => {
      clearInterval(heartbeat);
      unwatch();
    };
  }

  private async look(threadId: string, turnId: string, live: LiveTurn): Promise<void> {
    const loaded = await this.deps.threads.find(threadId);
    if (!loaded) live.abort.abort(new Error('the thread was deleted'));
    else if (loaded.thread.stopRequested(turnId)) live.stop();
  }

  private async renew(threadId: string, turnId: string, live: LiveTurn): Promise<void> {
    if (live.done) return;
    try {
      let stop = false;
      const renewed = await this.deps.threads.update(threadId, (thread) => {
        stop = thread.stopRequested(turnId);
        return thread.renewTurn(turnId, this.deps.clock.now().toISOString(), this.deps.settings.leaseMs);
      });
      if (stop) live.stop();
      if (!renewed && !live.done) {
        this.deps.logger.warn('a turn lost its hold on its thread and is aborted', { threadId, turnId });
        live.abort.abort(new Error('the turn lost its thread'));
      }
    } catch (error) {
      // The lease runs on until it lapses; the next beat tries again.
      this.deps.logger.warn('renewing a turn lease failed', {
        threadId,
        turnId,
        cause: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
