import { chunksRebuilding, type UiChunk } from '../../domain/threads/ui-chunk.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { TurnStream } from '../../ports/use-cases/threads.js';

/** How long a turn that nobody reads keeps running, so a reloaded page or a dropped connection can rejoin it. */
export const ABANDONED_TURN_GRACE_MS = 15_000;

/**
 * A turn in flight on this instance (or followed here from the instance running it): every chunk
 * it has emitted so far, and the clients reading it. A client that joins late is replayed what it
 * missed. When the last client goes away the turn is aborted after a grace period unless someone
 * rejoins (the model call stops; what was produced is saved); `stop` stops it at once, cooperatively.
 */
export class LiveTurn {
  /** Aborts everything the turn does, tool calls included. */
  readonly abort = new AbortController();
  /** A person's stop: the model's step is cut, calls under way finish, nothing more starts. */
  readonly stopping = new AbortController();
  private readonly ended: Promise<void>;
  private resolveEnded!: () => void;
  private readonly chunks: UiChunk[] = [];
  private readonly waiting = new Set<() => void>();
  private readers = 0;
  private finished = false;
  private abandon: ReturnType<typeof setTimeout> | null = null;

  constructor(
    readonly threadId: string,
    private readonly graceMs = ABANDONED_TURN_GRACE_MS,
    /** For a turn that continues an earlier answer: the chunks that rebuild it, for readers who join late. */
    private prelude: ReadonlyArray<UiChunk> = [],
  ) {
    this.ended = new Promise((resolve) => (this.resolveEnded = resolve));
  }

  /** Resolves once the turn has finished and saved what it produced. */
  whenEnded(): Promise<void> {
    return this.ended;
  }

  get done(): boolean {
    return this.finished;
  }

  push(chunk: UiChunk): void {
    if (this.finished) return;
    this.chunks.push(chunk);
    this.wake();
  }

  end(): void {
    this.finished = true;
    this.keep();
    this.wake();
    this.resolveEnded();
  }

  /** The person asked to stop: the model's step is cut now, whoever is reading. */
  stop(): void {
    this.keep();
    if (!this.finished) this.stopping.abort(new Error('stopped on request'));
  }

  /** What the turn continues, learnt after it began (a turn followed from another instance). */
  continues(prelude: ReadonlyArray<UiChunk>): void {
    this.prelude = prelude;
  }

  /**
   * A reader that starts at the first chunk. One that joins late (`rejoining`) is also handed, right
   * after `start`, what the turn continues, so its replay stands on its own.
   */
  read(rejoining = false): TurnStream {
    this.readers += 1;
    this.keep();
    let detached = false;
    const detach = () => {
      if (detached) return;
      detached = true;
      this.readers -= 1;
      this.wake();
      if (this.readers === 0 && !this.finished) this.abandonSoon();
    };
    const buffer = this.chunks;
    const prelude = () => (rejoining ? this.prelude : []);
    const over = () => this.finished || detached;
    const more = () => new Promise<void>((resolve) => this.waiting.add(resolve));
    async function* chunks(): AsyncGenerator<UiChunk> {
      let next = 0;
      try {
        for (;;) {
          while (next < buffer.length) {
            yield buffer[next++]!;
            if (next === 1) yield* prelude();
          }
          if (over()) return;
          await more();
        }
      } finally {
        detach();
      }
    }
    return { threadId: this.threadId, chunks: chunks(), detach };
  }

  private abandonSoon(): void {
    const abandon = () => this.abort.abort(new Error('every client went away'));
    if (this.graceMs <= 0) return abandon();
    this.abandon = setTimeout(abandon, this.graceMs);
    this.abandon.unref?.();
  }

  /** Someone reads again (or the turn is over): no abandonment is pending. */
  private keep(): void {
    if (this.abandon) clearTimeout(this.abandon);
    this.abandon = null;
  }

  private wake(): void {
    const waiting = [...this.waiting];
    this.waiting.clear();
    for (const resolve of waiting) resolve();
  }
}

/** The turns in flight on this instance, by thread. */
export class TurnHub {
  private readonly live = new Map<string, LiveTurn>();

  /** `graceMs`: how long a turn nobody reads keeps running before it is aborted. */
  constructor(private readonly graceMs = ABANDONED_TURN_GRACE_MS) {}

  begin(threadId: string, continuing: UiMessage | null = null): LiveTurn {
    const turn = new LiveTurn(threadId, this.graceMs, continuing ? chunksRebuilding(continuing) : []);
    this.live.set(threadId, turn);
    return turn;
  }

  find(threadId: string): LiveTurn | null {
    const turn = this.live.get(threadId);
    return turn && !turn.done ? turn : null;
  }

  /** Waits (briefly) for an abandoned turn on this thread to finish saving. */
  async settled(threadId: string, timeoutMs = 5_000): Promise<void> {
    const turn = this.live.get(threadId);
    if (!turn || turn.done || !(turn.abort.signal.aborted || turn.stopping.signal.aborted)) return;
    await Promise.race([turn.whenEnded(), new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
  }

  finish(turn: LiveTurn): void {
    turn.end();
    if (this.live.get(turn.threadId) === turn) this.live.delete(turn.threadId);
  }
}
