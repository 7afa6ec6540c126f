import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KoaWire } from './koa-wire.js';
import { fetchBridge } from './fetch-bridge.js';
import type { WireMounts } from './wire-mounts.js';
import { rememberHostContext } from './wire-request.js';

export type { FetchMount, FetchMountInit, KoaMount, KoaMountContext, WireMounts } from './wire-mounts.js';

/** A target whose path the URL parser leaves as it is: no dot segment, escape, backslash or `//` authority to read. */
const PLAIN_PATH = /^\/(?!\/)[\w\-/]*(?:\?|$)/;

export function mountsOf(wire: KoaWire): WireMounts {
  const callback = wire.app.callback();
  // Most mounts do not wait for the answer: no promise or listeners are made for them.
  const dispatch = (req: IncomingMessage, res: ServerResponse, hostContext?: unknown): void => {
    const direct = wire.direct(req);
    if (direct) return void direct(req, res);
    // Only the routers' routes hand the host's context to the principal resolver.
    if (hostContext !== undefined) rememberHostContext(req, hostContext);
    void callback(req, res);
  };
  const serve = (req: IncomingMessage, res: ServerResponse, hostContext: unknown) =>
    new Promise<void>((resolve) => {
      res.once('finish', resolve);
      res.once('close', resolve);
      dispatch(req, res, hostContext);
    });

  return {
    koa: async (ctx, next) => {
      if (!wire.owns(ctx.path)) return next();
      ctx.respond = false;
      await serve(ctx.req, ctx.res, ctx);
    },
    listener: (req, res) => dispatch(req, res),
    handle: (req, res, next) => {
      if (next && !wire.owns(pathOf(req))) return next();
      dispatch(req, res);
    },
    fetch: fetchBridge((req, res, host) => dispatch(req, res, host)).fetch,
  };
}

/** The request's path as the URL parser reads it (dot segments resolved); a plain one is read without parsing. */
function pathOf(req: IncomingMessage): string {
  const target = req.url ?? '/';
  if (PLAIN_PATH.test(target)) {
    const query = target.indexOf('?');
    return query === -1 ? target : target.slice(0, query);
  }
  return new URL(target, 'http://porter.invalid').pathname;
}
