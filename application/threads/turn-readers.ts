import { readerMark, stillReading, type ReaderMark } from '../../domain/threads/turn-readers.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { Logger } from '../../ports/logger.js';
import type { RecordSet } from '../../ports/store.js';

/** What TurnReaders is built from. */
export interface TurnReadersDeps {
  readonly marks: RecordSet<ReaderMark>;
  readonly ids: Ids;
  readonly clock: Clock;
  readonly logger: Logger;
  /** How long a mark holds unrenewed; renewed every third of it while its readers read. */
  readonly leaseMs: number;
}

/**
 * Who reads a turn, across instances, for hosts that give up turns nobody reads: this instance
 * keeps one mark per turn it follows for readers of its own (one row, whatever their number), and
 * the instance running a turn asks whether any mark of it is live before it gives the turn up.
 * Without the option nothing here is written: a turn then runs to its end regardless.
 */
export class TurnReaders {
  /** This instance's name on its marks. */
  private readonly instance: string;
  private readonly held = new Map<string, { count: number; renew: ReturnType<typeof setInterval> }>();

  constructor(private readonly deps: TurnReadersDeps) {
    this.instance = deps.ids.mint('reader');
  }

  /** A reader of `turnId` here began; the answer says it left (the mark goes with the last one). */
  reading(turnId: string): () => void {
    const held = this.held.get(turnId);
    if (held) held.count += 1;
    else {
      const renew = setInterval(() => void this.mark(turnId), Math.max(50, Math.floor(this.deps.leaseMs / 3)));
      renew.unref?.();
      this.held.set(turnId, { count: 1, renew });
      void this.mark(turnId);
    }
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const current = this.held.get(turnId);
      if (!current || --current.count > 0) return;
      clearInterval(current.renew);
      this.held.delete(turnId);
      void this.deps.marks.delete(this.idOf(turnId)).catch(() => undefined);
    };
  }

  /** Whether a reader of `turnId` reads it on any instance (as far as their marks say). */
  async anyone(turnId: string): Promise<boolean> {
    const now = this.deps.clock.now().toISOString();
    const page = await this.deps.marks.list({ refs: { turn: turnId }, limit: 100 });
    return page.items.some((record) => stillReading(record.data, now));
  }

  /** The turn ended: marks left of it (instances that died with readers) go. */
  async forget(turnId: string): Promise<void> {
    const page = await this.deps.marks.list({ refs: { turn: turnId }, limit: 500 });
    await Promise.all(page.items.map((record) => this.deps.marks.delete(record.id)));
  }

  private async mark(turnId: string): Promise<void> {
    if (!this.held.has(turnId)) return;
    try {
      const now = this.deps.clock.now().toISOString();
      await this.deps.marks.put({ id: this.idOf(turnId), data: readerMark(turnId, now, this.deps.leaseMs), refs: { turn: turnId } });
      // Its last reader left while the mark was written.
      if (!this.held.has(turnId)) await this.deps.marks.delete(this.idOf(turnId));
    } catch (error) {
      this.deps.logger.warn("a turn's readers could not be marked; the next renewal tries again", {
        turnId,
        cause: error instanceof Error ? error.message : String(error),
      });
    }
  }

  private idOf(turnId: string): string {
    return `${turnId}:${this.instance}`;
  }
}
