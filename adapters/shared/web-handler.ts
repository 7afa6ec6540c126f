import type { WireRequest } from '../../ports/wire-request.js';

/**
 * A framework-free HTTP handler: a Web `Request` in, a Web `Response` out, as the MCP SDK's own
 * handlers are. Each web framework (or Node's own server) reaches it through thin glue of its own
 * (adapters/http/web-glue.ts for Node and Koa), which also hands it what a `Request` cannot say.
 */
export type WebHandler = (request: Request, exchange: WebExchange) => Promise<Response> | Response;

/** What the glue knows of an exchange beyond the `Request`. */
export interface WebExchange {
  /**
   * The request's origin as the host reads it (`{protocol}://{host}`: `X-Forwarded-*` only behind
   * a trusted proxy), not checked: a handler that builds URLs from it checks it first. The
   * `Request`'s own URL carries it too, when it is a valid one.
   */
  readonly origin: string;
  /** The request arrived on a loopback address of this machine (its socket says so); false without a socket. */
  readonly loopback: boolean;
  /**
   * The body, read once, from where the glue has it: `PayloadTooLarge` past `limit` bytes (refused
   * as it arrives), `InvalidInput` when it breaks off. The `Request` itself carries none: a handler
   * reads the body here, so a host's glue hands it from wherever it is without a stream between.
   */
  body(limit: number): Promise<Uint8Array<ArrayBuffer>>;
  /** Calls `listener` once, when the exchange is over (the answer sent or the client gone). */
  onClose(listener: () => void): void;
  /**
   * The request as a host's resolver reads it (`oauth.signIn(req)`): built on first use, with the
   * host framework's context (`host`) where the glue has one.
   */
  wireRequest(): WireRequest;
}
