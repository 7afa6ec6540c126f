import { z } from 'zod';
import type { DevelopmentUseCases } from '../../../ports/use-cases/development.js';
import { SyncImpact } from '../shapes/system-shapes.js';
import { json, jsonBody } from '../wire-route.js';
import { openFamily, type WireRoutes } from '../wire-routes.js';
import { openRoutes } from './caller-routes.js';

const toolName = z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'must be a tool name');
const impactBody = z.strictObject({ tools: z.array(toolName).min(1).max(200) });

/**
 * Development routes. Mounting them (only in the development composition) is their whole access
 * control: they take no principal, and production answers 404 because they do not exist there.
 */
export function developmentRoutes(development: DevelopmentUseCases): WireRoutes {
  return openFamily('Development', [
    openRoutes(development).post('/sync/impact', 'measureSyncImpact', {
      summary: 'Count what depends on some tools',
      description: 'Development only. Deployment-wide counts of the apps, automations and grants that depend on the given tools.',
      body: jsonBody(impactBody),
      responses: { 200: json('Counts by family and tool.', SyncImpact) },
    }),
  ]);
}
