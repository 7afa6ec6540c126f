import type { Middleware } from 'koa';
import { Forbidden, UnsupportedMediaType } from '../../../domain/errors.js';
import { isAmbientCsrfExemption, isCsrfExempt, STATE_CHANGING } from '../wire-paths.js';

/**
 * `Sec-Fetch-Site` values of a request a page of another origin's site started. `same-site` counts:
 * a sibling subdomain (user content, a preview deployment) is another origin, and the session
 * cookie (SameSite=Lax) still rides along to it.
 */
const STARTED_ELSEWHERE = new Set(['cross-site', 'same-site']);

/**
 * The CSRF floor: a state-changing request that carries cookies (ambient credentials) must be
 * `application/json`, a type no cross-site form can send without a CORS preflight. Any Cookie
 * header counts, whatever the host resolver reads: failing closed is cheaper than guessing.
 * The app import, exempt because its own type already forces a preflight, is also refused (403)
 * when it carries cookies and the browser says another site started it.
 */
export function csrfFloor(relativePath: (path: string) => string | null): Middleware {
  return async (ctx, next) => {
    const relative = relativePath(ctx.path);
    if (relative !== null && STATE_CHANGING.has(ctx.method) && ctx.get('cookie') !== '') {
      if (!isCsrfExempt(ctx.method, relative)) {
        if (mediaType(ctx.get('content-type')) !== 'application/json') {
          throw new UnsupportedMediaType('A cookie-authenticated request that changes state must be sent as application/json');
        }
      } else if (isAmbientCsrfExemption(ctx.method, relative) && STARTED_ELSEWHERE.has(ctx.get('sec-fetch-site').trim().toLowerCase())) {
        throw new Forbidden("A cookie-carrying app import must come from this origin's own pages, not from another site");
      }
    }
    await next();
  };
}

/** The media type without parameters, lower-cased: `Application/JSON; charset=utf-8` → `application/json`. */
export function mediaType(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}
