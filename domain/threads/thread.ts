import { aggregateOf } from '../aggregate.js';

export const DEFAULT_TITLE = 'New conversation';
const TITLE_LENGTH = 80;
/** The longest title a person may give a thread. */
export const MAX_TITLE = 200;

export interface ThreadPrimitives {
  readonly id: string;
  readonly owner: string;
  readonly title: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly messageCount: number;
  /**
   * The turn in flight, leased until `until` (its instance renews the lease while it runs), so two
   * turns never write one thread at once; `stopRequested` once someone asked it to stop.
   */
  readonly activeTurn: ActiveTurn | null;
  /** Turns waiting for this one to end, first in line first (double-texting `enqueue` and `interrupt`). */
  readonly waiting?: ReadonlyArray<TurnHold>;
}

/** A hold on the thread: a turn's lease, or a place in line, each renewed by the instance holding it until `until`. */
export interface TurnHold {
  readonly id: string;
  readonly until: string;
}

export interface ActiveTurn extends TurnHold {
  readonly stopRequested?: true;
}

/** A conversation's summary: what lists show, kept apart from its messages. */
export class Thread extends aggregateOf<ThreadPrimitives>().reading('id', 'owner') {
  private constructor(props: ThreadPrimitives) {
    super(props);
  }

  static start(input: { id: string; owner: string; now: string }): Thread {
    return new Thread({
      id: input.id,
      owner: input.owner,
      title: DEFAULT_TITLE,
      createdAt: input.now,
      updatedAt: input.now,
      messageCount: 0,
      activeTurn: null,
    });
  }

  static fromPrimitives(props: ThreadPrimitives): Thread {
    return new Thread(props);
  }

  /** The turn in flight, or null when there is none or its lease lapsed (its instance died). */
  turnInFlight(now: string): ActiveTurn | null {
    const turn = this.props.activeTurn;
    return turn && turn.until > now ? turn : null;
  }

  /** A turn whose lease lapsed without the turn ending: its instance died mid-turn. */
  abandonedTurn(now: string): ActiveTurn | null {
    const turn = this.props.activeTurn;
    return turn && turn.until <= now ? turn : null;
  }

  /**
   * A turn may start when none is in flight (or the one in flight outlived its lease) and no other
   * turn waits ahead of it in line: `ticket` names the caller's own place in line, if it has one.
   */
  canStartTurnAt(now: string, ticket?: string): boolean {
    if (this.turnInFlight(now)) return false;
    const first = this.inLine(now)[0];
    return first === undefined || first.id === ticket;
  }

  /** Starts a turn; a caller that waited in line leaves it (with anyone whose place lapsed). */
  startTurn(turnId: string, now: string, leaseMs: number, ticket?: string): Thread {
    const waiting = this.inLine(now).filter((hold) => hold.id !== ticket);
    return this.with({
      activeTurn: { id: turnId, until: until(now, leaseMs) },
      ...(this.props.waiting ? { waiting } : {}),
      updatedAt: now,
    });
  }

  /** The turn's instance is alive: its lease runs on. Null when the thread is no longer this turn's. */
  renewTurn(turnId: string, now: string, leaseMs: number): Thread | null {
    const turn = this.props.activeTurn;
    if (turn?.id !== turnId) return null;
    return this.with({ activeTurn: { ...turn, until: until(now, leaseMs) } });
  }

  /** Someone asked the turn in flight to stop; its instance sees it and stops (this, when already asked or none is in flight). */
  requestStop(turnId: string): Thread {
    const turn = this.props.activeTurn;
    if (turn?.id !== turnId || turn.stopRequested) return this;
    return this.with({ activeTurn: { ...turn, stopRequested: true } });
  }

  stopRequested(turnId: string): boolean {
    return this.props.activeTurn?.id === turnId && this.props.activeTurn.stopRequested === true;
  }

  /** Takes a place at the end of the line of turns waiting (places that lapsed are dropped). */
  queue(ticket: string, now: string, leaseMs: number): Thread {
    const waiting = [...this.inLine(now).filter((hold) => hold.id !== ticket), { id: ticket, until: until(now, leaseMs) }];
    return this.with({ waiting });
  }

  /** The waiting instance is alive: its place is kept. Null when it has no place any more. */
  keepPlace(ticket: string, now: string, leaseMs: number): Thread | null {
    const waiting = this.props.waiting ?? [];
    if (!waiting.some((hold) => hold.id === ticket)) return null;
    return this.with({
      waiting: waiting.map((hold) => (hold.id === ticket ? { id: ticket, until: until(now, leaseMs) } : hold)),
    });
  }

  /** Gives up a place in line (this, when it had none). */
  leaveLine(ticket: string): Thread {
    const waiting = this.props.waiting ?? [];
    if (!waiting.some((hold) => hold.id === ticket)) return this;
    return this.with({ waiting: waiting.filter((hold) => hold.id !== ticket) });
  }

  /** Places in line still held, first first. */
  inLine(now: string): ReadonlyArray<TurnHold> {
    return (this.props.waiting ?? []).filter((hold) => hold.until > now);
  }

  /** The messages counted again, after a turn whose instance died never said what it added. */
  recounted(messageCount: number): Thread {
    return messageCount === this.props.messageCount ? this : this.with({ messageCount });
  }

  endTurn(turnId: string, now: string, messagesAdded: number): Thread {
    const activeTurn = this.props.activeTurn?.id === turnId ? null : this.props.activeTurn;
    return this.with({ activeTurn, updatedAt: now, messageCount: this.props.messageCount + messagesAdded });
  }

  /** The first thing the person says names the conversation. */
  titledBy(firstUserText: string): Thread {
    if (this.props.title !== DEFAULT_TITLE || this.props.messageCount > 0) return this;
    return this.with({ title: titleFrom(firstUserText) });
  }

  /** The person names the conversation themselves (whitespace folded, at most 200 characters). */
  renamed(title: string, now: string): Thread {
    const folded = title.replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE);
    return this.with({ title: folded || DEFAULT_TITLE, updatedAt: now });
  }

  movedTo(owner: string): Thread {
    return this.with({ owner });
  }
}

function until(now: string, leaseMs: number): string {
  return new Date(Date.parse(now) + leaseMs).toISOString();
}

export function titleFrom(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (!line) return DEFAULT_TITLE;
  return line.length <= TITLE_LENGTH ? line : `${line.slice(0, TITLE_LENGTH - 1).trimEnd()}…`;
}
