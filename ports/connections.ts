import type { ConnectionStatus } from '../domain/connections/connection.js';

/**
 * The Connections port: a connection broker holds people's third-party accounts and runs their
 * OAuth flows; Porter never sees a credential. Adapters: Nango and Composio (bring your own) and
 * Porter Cloud (docs/connections-cloud-api.md).
 */

/** Which account a broker call is about, in Porter's words. */
export interface BrokerAccount {
  /** Porter's `con_` id; brokers tag the account with it so a lookup finds exactly this one. */
  readonly connectionId: string;
  /** The subject the account belongs to (the broker's end user). */
  readonly owner: string;
  readonly toolkit: string;
  /** The broker's id for the account, once it has one. */
  readonly ref: string | null;
}

export interface BrokerInitiation {
  /** The broker's id, when it mints one up front (Composio, Cloud); null when it comes later (Nango). */
  readonly ref: string | null;
  /** Where the person goes to consent; the broker owns that page and the redirect after it. */
  readonly redirectUrl: string;
  /** When the broker stops accepting this flow, if it says. */
  readonly expiresAt: string | null;
}

export interface BrokerObservation {
  readonly status: ConnectionStatus;
  readonly ref: string | null;
}

export type ProxyMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A request to the third party's API, made by the broker with the account's credentials. */
export interface ProxyRequest {
  readonly method: ProxyMethod;
  /** Relative to the provider's API base, e.g. `/user/repos`. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

export interface ProxyResponse {
  /** The provider's status code, passed through (a 404 from GitHub is not a broker failure). */
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** A toolkit (a provider) the broker is set up to connect accounts to. */
export interface BrokerToolkit {
  /** The slug a connection names (`github`). */
  readonly toolkit: string;
  /** What a person calls it (`GitHub`); the slug when the broker gives no name. */
  readonly name: string;
}

export interface ConnectionBroker {
  /** What `/status` reports under `connections`. */
  readonly kind: 'byo' | 'cloud' | 'none';
  /** `nango`, `composio` or `cloud`: recorded on each connection. */
  readonly name: string;
  /** Returns for a real broker; the null broker (a deployment without one) throws ConnectionsNotConfigured before anything is read or stored. */
  assertConfigured(): void;
  /** The toolkits it is set up to connect, so a person picks one instead of typing a slug. */
  toolkits(): Promise<ReadonlyArray<BrokerToolkit>>;
  /** Starts the broker's consent flow; the person is sent back to `callbackUrl` where the broker can. */
  initiate(account: Omit<BrokerAccount, 'ref'>, callbackUrl: string): Promise<BrokerInitiation>;
  /** Where the account stands at the broker now. */
  observe(account: BrokerAccount): Promise<BrokerObservation>;
  /** Removes the account at the broker (revoking its credentials). Removing a missing account succeeds. */
  remove(account: BrokerAccount): Promise<void>;
  /** Calls the provider's API through the broker as this account. */
  request(account: BrokerAccount & { readonly ref: string }, request: ProxyRequest): Promise<ProxyResponse>;
}

/** What a tool that declares `connection` is handed: the caller's active account of that toolkit. */
export interface ConnectedAccount {
  readonly id: string;
  readonly toolkit: string;
  /** Calls the provider's API through the broker; the credentials never enter the process. */
  request(request: ProxyRequest): Promise<ProxyResponse>;
}
