import { aggregateOf } from '../aggregate.js';

/**
 * A connection: one person's link to a third-party account (a "toolkit" such as `github`) held by
 * a connection broker. Porter keeps who owns it and where the broker's flow stands; the broker keeps
 * the credentials, so none ever reaches Porter's store.
 */
export type ConnectionStatus = 'initiated' | 'active' | 'failed' | 'expired';

export const CONNECTION_STATUSES: ReadonlyArray<ConnectionStatus> = ['initiated', 'active', 'failed', 'expired'];

/** A toolkit slug as brokers name them: `github`, `google-calendar`, `slack_bot`. */
/** A toolkit slug, as brokers name them (`github`, `google-calendar`). */
export const TOOLKIT = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export function isToolkit(value: string): boolean {
  return TOOLKIT.test(value);
}

export interface ConnectionPrimitives {
  readonly id: string;
  /** The subject the account belongs to; it never moves (not even on anonymous adoption). */
  readonly owner: string;
  readonly toolkit: string;
  readonly status: ConnectionStatus;
  /** Which broker holds it (`nango`, `composio`, `cloud`): a ref from another broker means nothing. */
  readonly broker: string;
  /** The broker's own id for the account; null until the broker has one (Nango: after consent). */
  readonly brokerRef: string | null;
  /** Where the broker sends the person back after its flow. */
  readonly callbackUrl: string;
  readonly createdAt: string;
  /** After this instant an initiation nobody finished is expired. */
  readonly initiationExpiresAt: string;
  readonly updatedAt: string;
}

/** Which moves the status may make; failed and expired are final (the person connects anew). */
const NEXT: Readonly<Record<ConnectionStatus, ReadonlyArray<ConnectionStatus>>> = {
  initiated: ['active', 'failed', 'expired'],
  active: ['failed', 'expired'],
  failed: [],
  expired: [],
};

export class Connection extends aggregateOf<ConnectionPrimitives>().reading('id', 'owner', 'toolkit', 'status', 'brokerRef') {
  private constructor(props: ConnectionPrimitives) {
    super(props);
  }

  static initiate(input: {
    id: string;
    owner: string;
    toolkit: string;
    broker: string;
    brokerRef: string | null;
    callbackUrl: string;
    now: string;
    initiationExpiresAt: string;
  }): Connection {
    if (!isToolkit(input.toolkit)) throw new Error(`"${input.toolkit}" is not a toolkit slug`);
    return new Connection({
      id: input.id,
      owner: input.owner,
      toolkit: input.toolkit,
      status: 'initiated',
      broker: input.broker,
      brokerRef: input.brokerRef,
      callbackUrl: input.callbackUrl,
      createdAt: input.now,
      initiationExpiresAt: input.initiationExpiresAt,
      updatedAt: input.now,
    });
  }

  static fromPrimitives(props: ConnectionPrimitives): Connection {
    return new Connection(props);
  }

  /** Still worth asking the broker about: the flow may finish, or an active account may lapse. */
  get live(): boolean {
    return this.props.status === 'initiated' || this.props.status === 'active';
  }

  /**
   * What the broker reported, folded in. A move the status may not make is ignored (a late
   * "initiated" never undoes "active"); an initiation past its deadline becomes expired.
   * Returns this same instance when nothing changed.
   */
  observe(reported: { status: ConnectionStatus; brokerRef: string | null }, now: string): Connection {
    let status = NEXT[this.props.status].includes(reported.status) ? reported.status : this.props.status;
    if (status === 'initiated' && now >= this.props.initiationExpiresAt) status = 'expired';
    const brokerRef = reported.brokerRef ?? this.props.brokerRef;
    if (status === this.props.status && brokerRef === this.props.brokerRef) return this;
    return this.with({ status, brokerRef, updatedAt: now });
  }
}
