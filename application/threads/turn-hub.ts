import { chunksRebuilding, type UiChunk } from '../../domain/threads/ui-chunk.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { AbandonRule } from '../../domain/threads/turn-readers.js';
import type { TurnStream } from '../../ports/use-cases/threads.js';
import type { TurnReaders } from './turn-readers.js';

/** How a turn nobody reads here is given up: after `graceMs` without a reader on any instance, looking again every `recheckMs`. */
export interface Abandonment extends AbandonRule {
  readonly recheckMs: number;
  /** Whether someone reads the turn on another instance. */
  readonly readElsewhere: () => Promise<boolean>;
}

/**
 * A turn in flight on this instance (or followed here from the instance running it): every chunk
 * it has emitted so far, and the clients reading it. A client that joins late is replayed what it
 * missed. A turn runs to its end whether anyone reads it or not, unless the host opted into giving
 * up turns nobody reads (`abandonment`): then, once its last client here goes away and nobody on
 * any instance read it for the grace period, it is aborted (the model call stops; what was produced
 * is saved). `stop` stops it at once, cooperatively.
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
    private readonly abandonment: Abandonment | null = null,
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
  read(rejoining = false, left?: () => void): TurnStream {
    this.readers += 1;
    this.keep();
    let detached = false;
    const detach = () => {
      if (detached) return;
      detached = true;
      this.readers -= 1;
      left?.();
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

  /** Nobody reads here: after the grace period the turn is given up, unless someone reads it here or elsewhere. */
  private abandonSoon(): void {
    const rule = this.abandonment;
    if (!rule) return;
    const look = async () => {
      this.abandon = null;
      if (this.finished || this.readers > 0) return;
      const elsewhere = await rule.readElsewhere().catch(() => true);
      if (this.finished || this.readers > 0 || this.abandon) return;
      if (!elsewhere) return this.abort.abort(new Error('nobody read the turn for the grace period'));
      this.abandon = setTimeout(() => void look(), rule.recheckMs);
      this.abandon.unref?.();
    };
    this.abandon = setTimeout(() => void look(), rule.graceMs);
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

/** A host's opt-in to give up turns nobody reads: the rule, and where readers on every instance are known. */
export interface HubAbandonment extends AbandonRule {
  readonly readers: TurnReaders;
  readonly recheckMs: number;
}

/** The turns in flight on this instance, by thread. */
export class TurnHub {
  private readonly live = new Map<string, LiveTurn>();
  private readonly turnIds = new WeakMap<LiveTurn, string>();

  /** `abandonment`: absent, every turn runs to its end; present, a turn nobody reads anywhere is given up after its grace. */
  constructor(private readonly abandonment: HubAbandonment | null = null) {}

  begin(threadId: string, turnId: string, continuing: UiMessage | null = null): LiveTurn {
    const rule = this.abandonment;
    const abandonment = rule && {
      graceMs: rule.graceMs,
      recheckMs: rule.recheckMs,
      readElsewhere: () => rule.readers.anyone(turnId),
    };
    const turn = new LiveTurn(threadId, abandonment, continuing ? chunksRebuilding(continuing) : []);
    this.live.set(threadId, turn);
    this.turnIds.set(turn, turnId);
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
    const turnId = this.turnIds.get(turn);
    // Marks left by instances that died while their readers read.
    if (turnId) void this.abandonment?.readers.forget(turnId).catch(() => undefined);
  }
}
