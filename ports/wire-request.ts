import type { IncomingMessage } from 'node:http';

/**
 * What a host's principal resolver is given: the request as Porter received it. `host` carries the
 * host framework's own context when Porter is mounted as middleware (the Koa `ctx`), so a resolver
 * can read what the host's session middleware put there.
 */
export interface WireRequest {
  readonly method: string;
  /** Path and query as received, including the mount prefix. */
  readonly url: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  cookie(name: string): string | undefined;
  readonly ip: string;
  readonly secure: boolean;
  readonly raw: IncomingMessage;
  readonly host?: unknown;
}

/** Builds a request that never came over the network, for self-checks (the doctor). */
export type SyntheticRequestFactory = (input: { method: string; path: string; headers: Record<string, string> }) => WireRequest;
