import { z } from 'zod';
import type { DevelopmentUseCases } from '../../../ports/use-cases/development.js';
import { parse } from '../validation.js';
import type { WireRoutes } from '../wire-routes.js';
import { bodyOf } from '../wire-state.js';

const toolName = z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'must be a tool name');
const impactBody = z.strictObject({ tools: z.array(toolName).min(1).max(200) });

/**
 * Development routes. Mounting them (only in the development composition) is their whole access
 * control: they take no principal, and production answers 404 because they do not exist there.
 */
export function developmentRoutes(development: DevelopmentUseCases): WireRoutes {
  return {
    access: 'open',
    register(router) {
      router.post('/sync/impact', async (ctx) => {
        ctx.body = await development.measureSyncImpact.execute(parse(impactBody, bodyOf(ctx), 'body'));
      });
    },
  };
}
