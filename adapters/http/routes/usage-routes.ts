import type { UsageUseCases } from '../../../ports/use-cases/usage.js';
import { UsageReport } from '../shapes/usage-shapes.js';
import { json } from '../wire-route.js';
import { principalFamily, type WireRoutes } from '../wire-routes.js';
import { callerRoutes } from './caller-routes.js';

/** The caller's usage against the deployment's budgets (`limits`). */
export function usageRoutes(usage: UsageUseCases): WireRoutes {
  return principalFamily('Usage', [
    callerRoutes(usage).get('/usage', 'getUsage', {
      summary: 'What the caller used of each budget, and what is left',
      description:
        'Per budget the deployment meters (turns, tokens, toolCalls, appGenerations, runs): used, max, windowSeconds, remaining, and when a unit frees. Only the caller’s own, and for an anonymous session what the anonymous sessions of its address used together (`addressBudgets`).',
      responses: { 200: json("The caller's usage.", UsageReport) },
    }),
  ]);
}
