import type { UiChunk } from '../../domain/threads/ui-chunk.js';
import type { FeedSet } from '../../ports/feeds.js';
import type { Logger } from '../../ports/logger.js';
import type { TurnEntry } from './turn-settings.js';

/** Most chunks one append carries. */
const MAX_BATCH = 500;
/**
 * How long a chunk waits for others before its append starts: a turn's chunks come in bursts (its
 * start, then the model's words, then its end), and each append is a statement on the store.
 */
export const FLUSH_WINDOW_MS = 2;
/**
 * How long a chunk that only opens the answer or a step (nothing a reader sees) waits for what
 * follows it: the turn reads what the model needs between its start and the first words.
 */
export const OPENING_WINDOW_MS = 50;
const OPENING: ReadonlySet<string> = new Set(['start', 'start-step']);
/**
 * How long the chunks before one that closes a step wait for what follows it: the answer's save
 * and the turn's `finish` (a few milliseconds), or the next step's first chunks once its tools ran.
 */
export const CLOSING_WINDOW_MS = 20;
const CLOSING: ReadonlySet<string> = new Set(['finish-step']);
/** How often, and how long apart, a failed append is tried again before its chunks are given up. */
const RETRIES = 5;
const RETRY_MS = 200;

/**
 * Copies a turn's chunks into its feed, so readers on other instances can follow it. Until one
 * does, the chunks wait here and go in one append with the turn's end (a reader elsewhere that comes
 * later replays them from the feed): most turns are read only where they run, and a statement per
 * word would be the store's largest cost. Once a reader elsewhere asks (`followed`, on the turn's
 * signal), they are appended in order as they come, one append at a time: a chunk waits at most
 * `FLUSH_WINDOW_MS` for others to join it (an opening one `OPENING_WINDOW_MS`, one closing a step
 * `CLOSING_WINDOW_MS`, so a step's end and the turn's go together), and those emitted while an
 * append is under way go together in the next, so a fast stream costs few statements and a slow
 * one loses little time.
 * `flushed` appends what waits at once. The running instance's own readers never wait for it.
 */
export class TurnRelay {
  private pending: TurnEntry[] = [];
  private next = 0;
  private flushing: Promise<void> | null = null;
  /** The window the waiting chunks opened, while no append is under way, and how long it was. */
  private window: ReturnType<typeof setTimeout> | null = null;
  private windowMs = 0;
  private broken = false;
  /** Whether a reader on another instance follows the turn: its chunks then go as they come. */
  private live = false;

  constructor(
    private readonly feed: FeedSet<TurnEntry>,
    private readonly turnId: string,
    private readonly logger: Logger,
    /** For a turn that continues an answer: the chunks that rebuild it, first in the feed. */
    prelude: ReadonlyArray<UiChunk>,
  ) {
    if (prelude.length > 0) this.pending.push({ type: 'prelude', chunks: prelude });
  }

  push(chunk: UiChunk): void {
    if (this.broken) return;
    this.pending.push(chunk);
    if (!this.live || this.flushing) return;
    // A closing chunk holds what waits until the turn's end joins it (one append, not two); a
    // chunk a reader sees shortens the window an opening or closing chunk opened.
    if (CLOSING.has(chunk.type)) return this.openWindow(CLOSING_WINDOW_MS);
    const ms = OPENING.has(chunk.type) ? OPENING_WINDOW_MS : FLUSH_WINDOW_MS;
    if (this.window && this.windowMs <= ms) return;
    this.openWindow(ms);
  }

  /**
   * A reader on another instance may follow the turn (its signal rang): what waits goes at once,
   * and later chunks as they come.
   */
  followed(): void {
    if (this.live) return;
    this.live = true;
    this.flushSoon();
  }

  /** Resolves once every chunk pushed so far is in the feed (or was given up). */
  async flushed(): Promise<void> {
    for (;;) {
      this.flushSoon();
      if (!this.flushing) return;
      await this.flushing;
    }
  }

  /** Resolves once no append is under way; what waits for its window keeps waiting. */
  async idle(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  /** Once the turn is over and flushed: its chunks stay `lingerMs` for readers catching up, then go. */
  dropAfter(lingerMs: number): void {
    const drop = () =>
      void this.feed.drop(this.turnId).catch((error: unknown) =>
        this.logger.warn("a finished turn's chunks could not be dropped; pruning removes them later", {
          turnId: this.turnId,
          cause: error instanceof Error ? error.message : String(error),
        }),
      );
    const timer = setTimeout(drop, lingerMs);
    timer.unref?.();
  }

  private openWindow(ms: number): void {
    if (this.window) clearTimeout(this.window);
    this.windowMs = ms;
    this.window = setTimeout(() => this.flushSoon(), ms);
  }

  private flushSoon(): void {
    if (this.window) clearTimeout(this.window);
    this.window = null;
    if (this.flushing || this.pending.length === 0) return;
    this.flushing = this.flush().finally(() => {
      this.flushing = null;
      // Chunks pushed while the last append settled waited for it already, unless the last closes a
      // step: then what follows it may join them.
      if (!this.live) return;
      if (CLOSING.has(this.pending.at(-1)?.type ?? '')) this.openWindow(CLOSING_WINDOW_MS);
      else this.flushSoon();
    });
  }

  private async flush(): Promise<void> {
    let failures = 0;
    while (this.pending.length > 0 && !this.broken) {
      const batch = this.pending.slice(0, MAX_BATCH);
      try {
        await this.feed.append(this.turnId, this.next, batch);
        this.pending.splice(0, batch.length);
        this.next += batch.length;
        failures = 0;
      } catch (error) {
        failures += 1;
        if (failures > RETRIES) {
          this.broken = true;
          this.pending = [];
          this.logger.error('a turn could not be copied to its feed; readers on other instances will not see the rest', {
            turnId: this.turnId,
            cause: error instanceof Error ? error.message : String(error),
          });
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS * failures));
      }
    }
  }
}
