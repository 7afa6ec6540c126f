import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Middleware } from 'koa';
import type { KoaWire } from './koa-wire.js';
import { rememberHostContext } from './wire-request.js';

/** The ways a host mounts the wire. Mount it before any body parser: Porter reads its own bodies. */
export interface WireMounts {
  /** Koa middleware: answers Porter's paths and passes everything else to `next()`. */
  readonly koa: Middleware;
  /** A Node `http` request listener: answers Porter's paths, 404 (envelope) for the rest. */
  readonly listener: RequestListener;
  /** Connect/Express style: answers Porter's paths, calls `next()` for the rest. */
  readonly handle: (req: IncomingMessage, res: ServerResponse, next?: () => void) => void;
}

export function mountsOf(wire: KoaWire): WireMounts {
  const callback = wire.app.callback();
  const serve = (req: IncomingMessage, res: ServerResponse, hostContext?: unknown) =>
    new Promise<void>((resolve) => {
      if (hostContext !== undefined) rememberHostContext(req, hostContext);
      res.once('finish', resolve);
      res.once('close', resolve);
      void callback(req, res);
    });
  const pathOf = (req: IncomingMessage) => new URL(req.url ?? '/', 'http://porter.invalid').pathname;

  return {
    koa: async (ctx, next) => {
      if (!wire.owns(ctx.path)) return next();
      ctx.respond = false;
      await serve(ctx.req, ctx.res, ctx);
    },
    listener: (req, res) => void serve(req, res),
    handle: (req, res, next) => {
      if (next && !wire.owns(pathOf(req))) return next();
      void serve(req, res);
    },
  };
}
