import type { UiChunk } from '../../domain/threads/ui-chunk.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { TurnStream } from '../../ports/use-cases/threads.js';
import type { ThreadBook } from './thread-book.js';
import { LiveTurn, type Abandonment } from './turn-hub.js';
import type { TurnReaders } from './turn-readers.js';
import type { TurnEntry, TurnFeeds } from './turn-settings.js';

export const DIED_MID_TURN =
  'The instance running this turn stopped before it finished. What it had written so far is saved; send a new message to go on.';
export const THREAD_GONE = 'The thread was deleted.';

/** Following a turn stops as soon as nobody here reads it (the turn itself runs on where it runs). */
const WHILE_READ_HERE: Abandonment = { graceMs: 0, recheckMs: 0, readElsewhere: () => Promise.resolve(false) };

/** What TurnMirrors is built from. */
export interface TurnMirrorsDeps {
  readonly feeds: TurnFeeds;
  readonly threads: ThreadBook;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly settings: { readonly followCheckMs: number };
  /** Where this instance says it has readers, for hosts that give up turns nobody reads; absent, nothing is said. */
  readonly readers?: TurnReaders | null;
}

/**
 * Turns running on other instances, followed here for the readers of this instance. One follower
 * per turn rings the turn's signal (so its instance copies chunks to the feed as they come), reads
 * the turn's chunk feed from its first entry, woken by the feed's notifications, and hands the
 * chunks to every local reader; it stops when the last one leaves. Without news for
 * a while it looks at the thread: a turn whose lease lapsed lost its instance, and its readers get
 * a closing `error` part instead of waiting forever. When the host gives up turns nobody reads,
 * the store is told while someone here reads, so the running instance counts them.
 */
export class TurnMirrors {
  private readonly followed = new Map<string, LiveTurn>();

  constructor(private readonly deps: TurnMirrorsDeps) {}

  /** A reader of turn `turnId` of `threadId`, replayed from its first chunk. */
  read(threadId: string, turnId: string): TurnStream {
    let live = this.followed.get(turnId);
    if (!live || live.done) {
      live = new LiveTurn(threadId, WHILE_READ_HERE);
      this.followed.set(turnId, live);
      void this.follow(live, turnId);
    }
    return live.read(true, this.deps.readers?.reading(turnId));
  }

  /** How many turns this instance follows (for tests and status). */
  get size(): number {
    return this.followed.size;
  }

  private async follow(live: LiveTurn, turnId: string): Promise<void> {
    let next = 0;
    let woken = false;
    let wake: () => void = () => undefined;
    const onWake = () => {
      woken = true;
      wake();
    };
    let unwatch: () => void = () => undefined;
    const stopped = live.abort.signal;
    try {
      unwatch = await this.deps.feeds.chunks.watch(turnId, onWake);
      // The instance running the turn holds its chunks until someone follows: this says someone does.
      await this.deps.feeds.signals.signal(turnId);
      for (;;) {
        if (stopped.aborted) return;
        woken = false;
        const entries = await this.deps.feeds.chunks.read(turnId, next);
        next += entries.length;
        if (this.take(live, entries)) return;
        if (woken) continue;
        const news = await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), this.deps.settings.followCheckMs);
          const done = (value: boolean) => {
            clearTimeout(timer);
            stopped.removeEventListener('abort', onAbort);
            wake = () => undefined;
            resolve(value);
          };
          const onAbort = () => done(true);
          wake = () => done(true);
          stopped.addEventListener('abort', onAbort, { once: true });
          if (woken) done(true);
        });
        if (news) continue;
        const verdict = await this.lookAt(live.threadId, turnId);
        if (verdict === 'running') continue;
        // The turn is over or lost: whatever it appended last is read first.
        const last = await this.deps.feeds.chunks.read(turnId, next);
        next += last.length;
        if (this.take(live, last)) return;
        // A turn that ended well put its last chunk in the feed before it let the thread go (and the
        // feed keeps it a while): without it, the turn's instance died and another took the thread.
        this.close(live, verdict === 'gone' ? THREAD_GONE : DIED_MID_TURN);
        return;
      }
    } catch (error) {
      if (stopped.aborted) return;
      this.deps.logger.error('a turn could not be followed from this instance', {
        turnId,
        cause: error instanceof Error ? error.message : String(error),
      });
      this.close(live, 'This turn can no longer be followed from here. Reload the thread to read its answer.');
    } finally {
      unwatch();
      if (this.followed.get(turnId) === live) this.followed.delete(turnId);
      live.end();
    }
  }

  /** Hands entries to the readers; true once the turn's last chunk came. */
  private take(live: LiveTurn, entries: ReadonlyArray<TurnEntry>): boolean {
    for (const entry of entries) {
      if (entry.type === 'prelude') {
        live.continues((entry as { chunks: ReadonlyArray<UiChunk> }).chunks);
        continue;
      }
      live.push(entry as UiChunk);
      if (entry.type === 'finish') return true;
    }
    return false;
  }

  private close(live: LiveTurn, errorText: string): void {
    live.push({ type: 'error', errorText });
    live.push({ type: 'finish', finishReason: 'error' });
  }

  private async lookAt(threadId: string, turnId: string): Promise<'running' | 'over' | 'gone'> {
    const loaded = await this.deps.threads.find(threadId);
    if (!loaded) return 'gone';
    return loaded.thread.turnInFlight(this.deps.clock.now().toISOString())?.id === turnId ? 'running' : 'over';
  }
}
