import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/**
 * The part of a Koa context the `koa` mount reads. Structural, so Porter's public types do not
 * need `@types/koa`; Koa's own `app.use()` accepts the mount as it is.
 */
export interface KoaMountContext {
  readonly path: string;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  respond?: boolean | undefined;
}

/** Koa middleware in Koa's own shape: a context and the `next` of the chain. */
export type KoaMount = (ctx: KoaMountContext, next: () => Promise<unknown>) => Promise<unknown>;

/** What a host knows about a request that a Web `Request` does not carry. */
export interface FetchMountInit {
  /**
   * Handed to the principal resolver as `req.host`: the host framework's context (Hono's `c`, a
   * Next.js request…). Without it the resolver receives the `Request` itself.
   */
  readonly host?: unknown;
  /** The client's address (`ctx.ip`, rate limits, audit); empty when not given. */
  readonly ip?: string;
}

/** A Web-standard handler: a `Request` in, a `Response` out, streamed as the wire writes it. */
export type FetchMount = (request: Request, init?: FetchMountInit) => Promise<Response>;

/** The ways a host mounts the wire. Mount it before any body parser: Porter reads its own bodies. */
export interface WireMounts {
  /** Koa middleware: answers Porter's paths and passes everything else to `next()`. */
  readonly koa: KoaMount;
  /** A Node `http` request listener: answers Porter's paths, 404 (envelope) for the rest. */
  readonly listener: RequestListener;
  /** Connect/Express style: answers Porter's paths, calls `next()` for the rest. */
  readonly handle: (req: IncomingMessage, res: ServerResponse, next?: () => void) => void;
  /**
   * Web-standard (Hono, Next.js route handlers, Bun, Deno): answers Porter's paths, 404
   * (envelope) for the rest. `https:` in the request URL counts as a secure connection.
   */
  readonly fetch: FetchMount;
}
