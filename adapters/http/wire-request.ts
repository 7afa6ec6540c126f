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

/** The request as a resolver reads it, from Node's request alone (no framework's context but the one remembered). */
export function nodeWireRequest(req: IncomingMessage, origin: string): WireRequest {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  return {
    method: req.method ?? 'GET',
    url,
    path: query === -1 ? url : url.slice(0, query),
    headers: req.headers,
    cookie: (name) => cookieOf(req.headers.cookie, name),
    ip: req.socket.remoteAddress ?? '',
    secure: origin.startsWith('https:'),
    raw: req,
    host: hostContexts.get(req),
  };
}

/** A cookie's value as the request sent it (not decoded), as Koa's `ctx.cookies.get` reads it. */
function cookieOf(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
