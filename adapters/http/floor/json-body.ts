import type { Middleware } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import { readsOwnBody } from '../wire-paths.js';
import { isOrgScoped } from './org-refusal.js';

/** Largest JSON body a wire route accepts (app documents are the biggest). */
export const JSON_BODY_LIMIT = '4mb';

/**
 * Parses JSON bodies for wire routes (koa-body). Surfaces that verify or unpack raw bytes read
 * their own bodies. A body already consumed by a host parser mounted in front of Porter is a
 * wiring mistake, reported as such rather than as a hang.
 */
export function jsonBody(relativePath: (path: string) => string | null): Middleware {
  const parserFor = (methods: HttpMethodEnum[]) =>
    koaBody({
      json: true,
      urlencoded: false,
      text: false,
      multipart: false,
      jsonStrict: true,
      jsonLimit: JSON_BODY_LIMIT,
      jsonTypes: ['application/json'],
      parsedMethods: methods,
    }) as unknown as Middleware;
  const writes = [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE];
  const parser = parserFor(writes);
  // On the org-scoped families even a read's JSON body is read, so an `org` in it is refused too.
  const orgScopedParser = parserFor([...writes, HttpMethodEnum.GET]);
  return async (ctx, next) => {
    const relative = relativePath(ctx.path);
    if (relative === null || readsOwnBody(relative)) return next();
    if (ctx.req.readableEnded && ctx.request.length) {
      throw new Error('The request body was already read: mount Porter before any body parser');
    }
    return (isOrgScoped(relative) ? orgScopedParser : parser)(ctx, next);
  };
}
