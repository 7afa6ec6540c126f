import type { Middleware } from 'koa';
import { OrganizationsRequireCloud } from '../../../domain/errors.js';
import { bodyOf } from '../wire-state.js';

const ORG_SCOPED = /^\/(approvals|grants)(\/.*)?$/;

/** True for `/approvals[/*]` and `/grants[/*]`, where an `org` query or body field is refused. */
export function isOrgScoped(relativePath: string): boolean {
  return ORG_SCOPED.test(relativePath);
}

/** `?org=` on the org-scoped families, refused before the body is read or the resolver runs. */
export function refuseOrgQuery(relativePath: (path: string) => string | null): Middleware {
  return async (ctx, next) => {
    const relative = relativePath(ctx.path);
    if (relative && isOrgScoped(relative) && Object.prototype.hasOwnProperty.call(ctx.query, 'org')) {
      throw new OrganizationsRequireCloud();
    }
    await next();
  };
}

/** An `org` field in a JSON body on the org-scoped families, refused before the resolver runs. */
export function refuseOrgField(relativePath: (path: string) => string | null): Middleware {
  return async (ctx, next) => {
    const relative = relativePath(ctx.path);
    const body = bodyOf(ctx);
    if (relative && isOrgScoped(relative) && typeof body === 'object' && body !== null && !Array.isArray(body) && Object.prototype.hasOwnProperty.call(body, 'org')) {
      throw new OrganizationsRequireCloud();
    }
    await next();
  };
}
