import { z } from 'zod';
import type { SystemUseCases } from '../../../ports/use-cases/system.js';
import { parse } from '../validation.js';
import type { WireRoutes } from '../wire-routes.js';
import { principalOf } from '../wire-state.js';

export const pageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).optional(),
  cursor: z.string().min(1).max(512).optional(),
});

/** `GET /status` and `GET /activity`. */
export function systemRoutes(system: SystemUseCases): WireRoutes {
  return {
    access: 'principal',
    register(router) {
      router.get('/status', async (ctx) => {
        ctx.body = await system.getStatus.execute();
      });
      router.get('/activity', async (ctx) => {
        const query = parse(pageQuery, ctx.query, 'query');
        ctx.body = await system.listActivity.execute({ principal: principalOf(ctx), ...query });
      });
    },
  };
}
