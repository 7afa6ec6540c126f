import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KoaWire } from './koa-wire.js';
import { fetchBridge } from './fetch-bridge.js';
import type { WireMounts } from './wire-mounts.js';
import { rememberHostContext } from './wire-request.js';

export type { FetchMount, FetchMountInit, KoaMount, KoaMountContext, WireMounts } from './wire-mounts.js';

export function mountsOf(wire: KoaWire): WireMounts {
  const callback = wire.app.callback();
  const serve = (req: IncomingMessage, res: ServerResponse, hostContext?: unknown) =>
    new Promise<void>((resolve) => {
      res.once('finish', resolve);
      res.once('close', resolve);
      const direct = wire.direct(req);
      if (direct) return void direct(req, res);
      // Only the routers' routes hand the host's context to the principal resolver.
      if (hostContext !== undefined) rememberHostContext(req, hostContext);
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
    fetch: fetchBridge((req, res, host) => void serve(req, res, host)).fetch,
  };
}
