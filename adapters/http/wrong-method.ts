import type { Middleware } from 'koa';
import { Router } from '@koa/router';
import { MethodNotAllowed } from '../../domain/errors.js';
import { writeWebResponse } from './web-glue.js';
import type { WireRoute } from './wire-route.js';
import type { WireRoutes } from './wire-routes.js';

/**
 * The answer to a method a known path does not take: 405 with `Allow` listing the methods it does
 * (HEAD with GET; OPTIONS where the path has a preflight), in the envelope or, for a group that
 * answers in its own shapes, as that group says. Any method: `TRACE`, `PATCH` on a path without
 * it. Runs after the routers, so only when no route took the request; a path no route has stays
 * 404. Paths match as the routers match them (case-sensitive, a trailing slash tolerated).
 */
export function wrongMethod(groups: ReadonlyArray<WireRoutes>, mount: string): Middleware {
  const tables = groups.map((group) => ({ group, paths: pathTable(group, mount) }));
  return async (ctx, next) => {
    await next();
    if (ctx.status !== 404 || ctx.body !== undefined || ctx.respond === false) return;
    for (const { group, paths } of tables) {
      const allowed = methodsOf(paths, ctx.path);
      if (allowed.length === 0) continue;
      // A route of this path passed the request on (a document at its exact path only): not a method matter.
      if (allowed.includes(ctx.method)) return;
      if (group.refuseMethod) {
        ctx.respond = false;
        return writeWebResponse(ctx.req, ctx.res, group.refuseMethod(ctx.path, allowed));
      }
      throw new MethodNotAllowed(ctx.method, allowed);
    }
  };
}

type Layer = Router['stack'][number];

/** A router that only matches: each route's path under the methods it takes, as the real routers register it. */
function pathTable(group: WireRoutes, mount: string): { router: Router; routes: Map<Layer, WireRoute> } {
  const router = new Router({ prefix: group.access === 'origin' ? '' : mount, sensitive: true });
  const routes = new Map<Layer, WireRoute>();
  const none = () => undefined;
  for (const route of group.routes) {
    if (route.method === 'all') router.all(route.path, none);
    else router[route.method](route.path, none);
    routes.set(router.stack.at(-1)!, route);
  }
  return { router, routes };
}

const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * The methods `path` takes, in the usual order: those of the routes whose path it matches with
 * parameters their schemas take (`/apps/placements` is no `/apps/:id`, an app id being `app_…`).
 */
function methodsOf({ router, routes }: ReturnType<typeof pathTable>, path: string): string[] {
  const methods = new Set<string>();
  for (const layer of router.match(path, 'GET').path) {
    const params = layer.params(path, layer.captures(path));
    const schemas = Object.entries(routes.get(layer)?.params ?? {});
    if (!schemas.every(([name, schema]) => schema.safeParse(params[name]).success)) continue;
    for (const method of layer.methods) methods.add(method);
  }
  const rank = (method: string) => (ORDER.includes(method) ? ORDER.indexOf(method) : ORDER.length);
  return [...methods].sort((a, b) => rank(a) - rank(b));
}
