import type { TickUseCases } from '../../../ports/use-cases/runs.js';
import { RunIds } from '../shapes/automation-shapes.js';
import { json, route } from '../wire-route.js';
import type { WireRoutes } from '../wire-routes.js';

/**
 * `POST /tick` for an external cron. Self-authenticating: the bearer is PORTER_TICK_SECRET, checked
 * in the use case in constant time; no principal is resolved and the body is not read.
 */
export function tickRoutes(ticks: TickUseCases): WireRoutes {
  return {
    access: 'self',
    tag: 'Automations',
    securitySchemes: {
      tickSecret: { type: 'http', scheme: 'bearer', description: '`PORTER_TICK_SECRET`, for an external cron calling `POST /tick`.' },
    },
    security: [{ tickSecret: [] }],
    routes: [
      route({
        id: 'tick',
        method: 'post',
        path: '/tick',
        summary: 'Fire the schedule slots that are due',
        description: 'For an external cron, on any instance. Each schedule slot fires exactly once across instances. The body is not read.',
        responses: { 200: json('The runs started.', RunIds) },
        errors: ['unauthorized', 'unavailable'],
        handle: async (ctx) => {
          const bearer = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'))?.[1] ?? null;
          ctx.body = await ticks.tick.execute({ bearer });
        },
      }),
    ],
  };
}
