import type { TickUseCases } from '../../../ports/use-cases/runs.js';
import type { WireRoutes } from '../wire-routes.js';

/**
 * `POST /tick` for an external cron. Self-authenticating: the bearer is PORTER_TICK_SECRET, checked
 * in the use case in constant time; no principal is resolved and the body is not read.
 */
export function tickRoutes(ticks: TickUseCases): WireRoutes {
  return {
    access: 'self',
    register(router) {
      router.post('/tick', async (ctx) => {
        const bearer = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'))?.[1] ?? null;
        ctx.body = await ticks.tick.execute({ bearer });
      });
    },
  };
}
