import type { Middleware } from 'koa';
import { OrganizationsRequireCloud } from '../../../domain/errors.js';
import { bodyOf } from '../wire-state.js';
import { isOrganizationPath, isOrgScoped } from '../wire-paths.js';
import { jsonBody } from './json-body.js';

const has = (value: object, key: string) => Object.prototype.hasOwnProperty.call(value, key);

/**
 * The organizations refusal, before the principal resolver runs: `/orgs` and every path under it,
 * any method, is 402 `cloud-required` (organizations are a Porter Cloud capability), and so is, on
 * every method and every path under `/approvals` and `/grants`, whether a route answers it or not,
 * an `org` query parameter or an `org` field in a JSON body. Mounted ahead of the routers (whose
 * middleware runs only for a path one of their routes matched); the JSON body is read here, for
 * any method, and the routes behind find it parsed.
 */
export function orgRefusal(relativePath: (path: string) => string | null): Middleware {
  const readBody = jsonBody(relativePath);
  return async (ctx, next) => {
    const relative = relativePath(ctx.path);
    if (relative !== null && isOrganizationPath(relative)) throw new OrganizationsRequireCloud();
    if (relative === null || !isOrgScoped(relative)) return next();
    if (has(ctx.query, 'org')) throw new OrganizationsRequireCloud();
    return readBody(ctx, () => {
      const body = bodyOf(ctx);
      if (typeof body === 'object' && body !== null && !Array.isArray(body) && has(body, 'org')) throw new OrganizationsRequireCloud();
      return next();
    });
  };
}
