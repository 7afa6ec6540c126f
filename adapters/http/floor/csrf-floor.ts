import type { Middleware } from 'koa';
import { UnsupportedMediaType } from '../../../domain/errors.js';
import { isCsrfExempt, STATE_CHANGING } from '../wire-paths.js';

/**
 * The CSRF floor: a state-changing request that carries cookies (ambient credentials) must be
 * `application/json`, a type no cross-site form can send without a CORS preflight. Any Cookie
 * header counts, whatever the host resolver reads: failing closed is cheaper than guessing.
 */
export function csrfFloor(relativePath: (path: string) => string | null): Middleware {
  return async (ctx, next) => {
    const relative = relativePath(ctx.path);
    if (relative !== null && STATE_CHANGING.has(ctx.method) && ctx.get('cookie') !== '' && !isCsrfExempt(ctx.method, relative)) {
      if (mediaType(ctx.get('content-type')) !== 'application/json') {
        throw new UnsupportedMediaType('A cookie-authenticated request that changes state must be sent as application/json');
      }
    }
    await next();
  };
}

/** The media type without parameters, lower-cased: `Application/JSON; charset=utf-8` → `application/json`. */
export function mediaType(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}
