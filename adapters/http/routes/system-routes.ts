import type { SystemUseCases } from '../../../ports/use-cases/system.js';
import { ActivityPage, Status } from '../shapes/system-shapes.js';
import { json, route } from '../wire-route.js';
import { principalFamily, type WireRoutes } from '../wire-routes.js';
import { callerRoutes } from './caller-routes.js';

/** `GET /status` and `GET /activity`. */
export function systemRoutes(system: SystemUseCases): WireRoutes {
  return principalFamily('System', [
    route({
      id: 'getStatus',
      method: 'get',
      path: '/status',
      summary: 'What this deployment runs',
      responses: { 200: json("Porter's version and its blocks.", Status) },
      handle: async (ctx) => {
        ctx.body = await system.getStatus.execute();
      },
    }),
    callerRoutes(system).list('/activity', 'listActivity', {
      summary: "List the caller's audit events",
      responses: { 200: json('Audit events, newest first.', ActivityPage) },
    }),
  ]);
}
