import type { SystemUseCases } from '../../../ports/use-cases/system.js';
import { ActivityPage, Status } from '../shapes/system-shapes.js';
import { json } from '../wire-route.js';
import { principalFamily, type WireRoutes } from '../wire-routes.js';
import { callerRoutes } from './caller-routes.js';

/** `GET /status` and `GET /activity`. */
export function systemRoutes(system: SystemUseCases): WireRoutes {
  const caller = callerRoutes(system);
  return principalFamily('System', [
    caller.get('/status', 'getStatus', {
      summary: 'What this deployment runs',
      responses: { 200: json("Porter's version and its blocks.", Status) },
    }),
    caller.list('/activity', 'listActivity', {
      summary: "List the caller's audit events",
      responses: { 200: json('Audit events, newest first.', ActivityPage) },
    }),
  ]);
}
