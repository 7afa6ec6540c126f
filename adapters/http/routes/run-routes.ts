import { z } from 'zod';
import type { RunUseCases } from '../../../ports/use-cases/runs.js';
import { parse } from '../validation.js';
import type { WireRoutes } from '../wire-routes.js';
import { bodyOf, principalOf } from '../wire-state.js';
import { pageQuery } from './system-routes.js';

const runId = z.string().regex(/^run_[0-9A-Za-z_-]{10,64}$/, 'must be a run id (run_…)');

const listQuery = pageQuery.extend({ automationId: z.string().regex(/^atm_[0-9A-Za-z_-]{10,64}$/, 'must be an automation id (atm_…)').optional() });

const noBody = z.union([z.undefined(), z.strictObject({})]);

/** Runs of automations: listed, read with their transcript, and stopped. */
export function runRoutes(runs: RunUseCases): WireRoutes {
  return {
    access: 'principal',
    register(router) {
      router.get('/runs', async (ctx) => {
        ctx.body = await runs.listRuns.execute({ principal: principalOf(ctx), ...parse(listQuery, ctx.query, 'query') });
      });
      router.get('/runs/:id', async (ctx) => {
        ctx.body = await runs.getRun.execute({ principal: principalOf(ctx), runId: parse(runId, ctx.params.id, 'id') });
      });
      router.post('/runs/:id/stop', async (ctx) => {
        parse(noBody, bodyOf(ctx), 'body');
        ctx.body = await runs.stopRun.execute({ principal: principalOf(ctx), runId: parse(runId, ctx.params.id, 'id') });
      });
    },
  };
}
