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
  /** The turn in flight, leased until `until`, so two turns never write one thread at once. */
  readonly activeTurn: { readonly id: string; readonly until: string } | null;
}

/** A conversation's summary: what lists show, kept apart from its messages. */
export class Thread {
  private constructor(private readonly props: ThreadPrimitives) {}

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

  toPrimitives(): ThreadPrimitives {
    return this.props;
  }

  get id(): string {
    return this.props.id;
  }

  get owner(): string {
    return this.props.owner;
  }

  /** A turn may start when none is in flight, or the one in flight has outlived its lease. */
  canStartTurnAt(now: string): boolean {
    return this.props.activeTurn === null || this.props.activeTurn.until <= now;
  }

  startTurn(turnId: string, now: string, leaseMs: number): Thread {
    return new Thread({
      ...this.props,
      activeTurn: { id: turnId, until: new Date(Date.parse(now) + leaseMs).toISOString() },
      updatedAt: now,
    });
  }

  endTurn(turnId: string, now: string, messagesAdded: number): Thread {
    const activeTurn = this.props.activeTurn?.id === turnId ? null : this.props.activeTurn;
    return new Thread({ ...this.props, activeTurn, updatedAt: now, messageCount: this.props.messageCount + messagesAdded });
  }

  /** The first thing the person says names the conversation. */
  titledBy(firstUserText: string): Thread {
    if (this.props.title !== DEFAULT_TITLE || this.props.messageCount > 0) return this;
    return new Thread({ ...this.props, title: titleFrom(firstUserText) });
  }

  /** The person names the conversation themselves (whitespace folded, at most 200 characters). */
  renamed(title: string, now: string): Thread {
    const folded = title.replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE);
    return new Thread({ ...this.props, title: folded || DEFAULT_TITLE, updatedAt: now });
  }

  movedTo(owner: string): Thread {
    return new Thread({ ...this.props, owner });
  }
}

export function titleFrom(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (!line) return DEFAULT_TITLE;
  return line.length <= TITLE_LENGTH ? line : `${line.slice(0, TITLE_LENGTH - 1).trimEnd()}…`;
}
