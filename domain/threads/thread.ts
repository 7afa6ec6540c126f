import { aggregateOf } from '../aggregate.js';
import { plainTitle } from './thread-title.js';
import { keptAsVersion, type VersionFork } from './message-versions.js';
import { defined } from '../defined.js';

export const DEFAULT_TITLE = 'New conversation';
/** The longest title a person may give a thread. */
export const MAX_TITLE = 200;

export interface ThreadPrimitives {
  readonly id: string;
  readonly owner: string;
  readonly title: string;
  /**
   * Who named the thread: `generated` by a model after the first answer, `person` by a rename
   * (which nothing overwrites). Absent: the default title, or the start of the first message.
   */
  readonly titledBy?: 'generated' | 'person';
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
  /** Where regenerate or edit and resend replaced messages, with the versions kept (message-versions.ts); absent: none. */
  readonly versions?: ReadonlyArray<VersionFork>;
}

/** A hold on the thread: a turn's lease, or a place in line, each renewed by the instance holding it until `until`. */
export interface TurnHold {
  readonly id: string;
  readonly until: string;
  /**
   * The instance holding it, by its liveness holder name, when that instance holds an engine
   * liveness mark (PostgreSQL): once the mark is gone the hold may be taken over before `until`.
   */
  readonly holder?: string;
}

export interface ActiveTurn extends TurnHold {
  readonly stopRequested?: true;
  /** The client's id of the message the turn carries (the AI SDK's), so the same message sent again joins this turn. */
  readonly sent?: string;
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

  /** The turn in flight carrying the message the client sent as `sent`, or null. */
  turnCarrying(sent: string, now: string): ActiveTurn | null {
    const turn = this.turnInFlight(now);
    return turn?.sent === sent ? turn : null;
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

  /**
   * Starts a turn; a caller that waited in line leaves it (with anyone whose place lapsed). `sent`:
   * the client's id of the message it carries, if any.
   */
  startTurn(turnId: string, now: string, leaseMs: number, ticket?: string, sent?: string, holder?: string): Thread {
    const waiting = this.inLine(now).filter((hold) => hold.id !== ticket);
    return this.with({
      activeTurn: { id: turnId, until: until(now, leaseMs), ...defined({ sent: sent || undefined, holder: holder || undefined }) },
      ...defined({ waiting: this.props.waiting ? waiting : undefined }),
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
  queue(ticket: string, now: string, leaseMs: number, holder?: string): Thread {
    const place = { id: ticket, until: until(now, leaseMs), ...defined({ holder: holder || undefined }) };
    const waiting = [...this.inLine(now).filter((hold) => hold.id !== ticket), place];
    return this.with({ waiting });
  }

  /** The waiting instance is alive: its place is kept. Null when it has no place any more. */
  keepPlace(ticket: string, now: string, leaseMs: number): Thread | null {
    const waiting = this.props.waiting ?? [];
    if (!waiting.some((hold) => hold.id === ticket)) return null;
    return this.with({
      waiting: waiting.map((hold) => (hold.id === ticket ? { ...hold, until: until(now, leaseMs) } : hold)),
    });
  }

  /** Gives up a place in line (this, when it had none). */
  leaveLine(ticket: string): Thread {
    const waiting = this.props.waiting ?? [];
    if (!waiting.some((hold) => hold.id === ticket)) return this;
    return this.with({ waiting: waiting.filter((hold) => hold.id !== ticket) });
  }

  /**
   * The instances whose liveness decides whether `ticket` (or a new turn) could start now: the
   * holders of the turn in flight and of the places ahead in line. Empty when nothing stands in the
   * way or nothing in the way names its instance (then only leases decide).
   */
  holdersInTheWay(now: string, ticket?: string): ReadonlyArray<string> {
    if (this.canStartTurnAt(now, ticket)) return [];
    const line = this.inLine(now);
    const mine = line.findIndex((hold) => hold.id === ticket);
    const ahead = mine < 0 ? line : line.slice(0, mine);
    const holds = [this.turnInFlight(now), ...ahead];
    return [...new Set(holds.flatMap((hold) => (hold?.holder ? [hold.holder] : [])))];
  }

  /**
   * The holds of instances that died (`gone` says which) taken as lapsed now, as their leases
   * would have lapsed later: the turn in flight becomes abandoned, their places in line drop.
   */
  lapsedWhere(gone: (holder: string) => boolean, now: string): Thread {
    const dead = (hold: TurnHold) => hold.holder !== undefined && hold.until > now && gone(hold.holder);
    const turn = this.props.activeTurn;
    const waiting = this.props.waiting;
    const activeTurn = turn && dead(turn) ? { ...turn, until: now } : turn;
    const kept = waiting?.filter((hold) => !dead(hold));
    if (activeTurn === turn && kept?.length === waiting?.length) return this;
    return this.with({ activeTurn, ...defined({ waiting: kept }) });
  }

  /** Places in line still held, first first. */
  inLine(now: string): ReadonlyArray<TurnHold> {
    return (this.props.waiting ?? []).filter((hold) => hold.until > now);
  }

  /** The messages counted again, after a turn whose instance died never said what it added. */
  recounted(messageCount: number): Thread {
    return messageCount === this.props.messageCount ? this : this.with({ messageCount });
  }

  /**
   * The turn is over, having added `messagesAdded`. A thread left empty (its first turn refused
   * before the message was stored) drops the title that message gave it.
   */
  endTurn(turnId: string, now: string, messagesAdded: number): Thread {
    const activeTurn = this.props.activeTurn?.id === turnId ? null : this.props.activeTurn;
    const messageCount = this.props.messageCount + messagesAdded;
    const untitled = messageCount === 0 && !this.props.titledBy;
    return this.with({ activeTurn, updatedAt: now, messageCount, title: untitled ? DEFAULT_TITLE : this.props.title });
  }

  /**
   * The first thing the person says names the conversation, until a better title comes: taken with
   * the first turn's lease, before the message is stored, so an empty thread's title is only ever
   * its first message's (one a dead instance's turn gave it is replaced).
   */
  titledBy(firstUserText: string): Thread {
    if (this.props.messageCount > 0 || this.props.titledBy) return this;
    const title = titleFrom(firstUserText);
    return title === this.props.title ? this : this.with({ title });
  }

  /** A model's short title, made plain; never over the person's own (a rename wins), nor empty. */
  titledGenerated(title: string): Thread | null {
    const plain = plainTitle(title);
    if (this.props.titledBy === 'person' || !plain || plain === this.props.title) return null;
    return this.with({ title: plain, titledBy: 'generated' });
  }

  /** The person names the conversation themselves (whitespace folded, at most 200 characters). */
  renamed(title: string, now: string): Thread {
    const folded = title.replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE);
    return this.with({ title: folded || DEFAULT_TITLE, titledBy: 'person', updatedAt: now });
  }

  /** The forks where messages were replaced, with their versions kept. */
  get forks(): ReadonlyArray<VersionFork> {
    return this.props.versions ?? [];
  }

  /** A turn replaced the messages after `after` (`''`: from the start): they are kept as an earlier version. */
  keptVersion(after: string, replaced: ReadonlyArray<string>): Thread {
    const versions = keptAsVersion(this.forks, after, replaced);
    return versions === this.props.versions || replaced.length === 0 ? this : this.with({ versions });
  }

  /** Another version shown: the forks as the switch left them, the messages now counted. */
  showingVersions(versions: ReadonlyArray<VersionFork>, messageCount: number, now: string): Thread {
    return this.with({ versions, messageCount, updatedAt: now });
  }

  movedTo(owner: string): Thread {
    return this.with({ owner });
  }
}

function until(now: string, leaseMs: number): string {
  return new Date(Date.parse(now) + leaseMs).toISOString();
}

/** The title a first message gives: its words without commands or Markdown, cut short. */
/**
 * The title search finds as a title: one a model or the person gave. The first message's words,
 * which title a thread until then, are found as that message.
 */
export function searchableTitle(thread: Pick<ThreadPrimitives, 'title' | 'titledBy'>): string | null {
  return thread.titledBy !== undefined && thread.title !== DEFAULT_TITLE ? thread.title : null;
}

export function titleFrom(text: string): string {
  return plainTitle(text) || DEFAULT_TITLE;
}
