import { z } from 'zod';
import { pathParamsOf, route, type RouteMethod, type WireRoute } from '../../adapters/http/wire-route.js';
import type { WireRouteContext } from '../../adapters/http/wire-state.js';

/** A route with no declared input but its path parameters: the handler reads what the floor left. */
export function probeRoute(method: RouteMethod, path: string, handle: (ctx: WireRouteContext) => void): WireRoute {
  return route({
    id: `${method}${path}`,
    method,
    path,
    summary: 'probe',
    responses: {},
    params: Object.fromEntries(pathParamsOf(path).map((name) => [name, z.string()])),
    handle,
  });
}
