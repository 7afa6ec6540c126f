import type { IncomingMessage } from 'node:http';
import type { Context } from 'koa';
import type { WireRequest } from '../../ports/wire-request.js';

/** The host framework context a request arrived with, when Porter is mounted as middleware. */
const hostContexts = new WeakMap<IncomingMessage, unknown>();

export function rememberHostContext(req: IncomingMessage, hostContext: unknown): void {
  hostContexts.set(req, hostContext);
}

export function wireRequestOf(ctx: Context): WireRequest {
  return {
    method: ctx.method,
    url: ctx.originalUrl,
    path: ctx.path,
    headers: ctx.headers,
    cookie: (name) => ctx.cookies.get(name) ?? undefined,
    ip: ctx.ip,
    secure: ctx.secure,
    raw: ctx.req,
    host: hostContexts.get(ctx.req),
  };
}
