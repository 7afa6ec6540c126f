import type { Middleware } from 'koa';
import { bodyOf } from '../wire-state.js';
import { isOrgScoped, readsOwnBody } from '../wire-paths.js';
import { readJson } from './read-json.js';

/** Largest JSON body a wire route accepts, decoded (app documents are the biggest). */
export const JSON_BODY_LIMIT = 4 * 1024 * 1024;

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Parses `application/json` bodies of wire routes into `ctx.request.body`. Surfaces that verify or
 * unpack raw bytes read their own bodies. On the org-scoped families a JSON body is read whatever
 * the method, so an `org` in it is refused too (the org refusal reads it first; a body parsed
 * once is not read again). A body already consumed by a host parser mounted in front of Porter is
 * a wiring mistake, reported as such rather than as a hang.
 */
export function jsonBody(relativePath: (path: string) => string | null): Middleware {
  return async (ctx, next) => {
    const relative = relativePath(ctx.path);
    if (relative === null || readsOwnBody(relative) || bodyOf(ctx) !== undefined) return next();
    const parses = WRITES.has(ctx.method) || isOrgScoped(relative);
    // `is` answers null when the request has no body at all.
    if (!parses || !ctx.is('application/json')) return next();
    if (ctx.req.readableEnded && ctx.request.length) {
      throw new Error('The request body was already read: mount Porter before any body parser');
    }
    (ctx.request as { body?: unknown }).body = await readJson(ctx.req, JSON_BODY_LIMIT);
    return next();
  };
}
