import { z } from 'zod';
import type { RunUseCases } from '../../../ports/use-cases/runs.js';
import { Run, RunDetail, RunList } from '../shapes/automation-shapes.js';
import { idParam } from '../shapes/path-params.js';
import { json, jsonBody, route } from '../wire-route.js';
import type { WireRoutes } from '../wire-routes.js';
import { principalOf } from '../wire-state.js';
import { pageQuery } from './system-routes.js';

const runId = idParam('run');

const listQuery = pageQuery.extend({
  automationId: z
    .string()
    .regex(/^atm_[0-9A-Za-z_-]{10,64}$/, 'must be an automation id (atm_…)')
    .optional(),
});

const noBody = z.union([z.undefined(), z.strictObject({})]);

/** Runs of automations: listed, read with their transcript, and stopped. */
export function runRoutes(runs: RunUseCases): WireRoutes {
  return {
    access: 'principal',
    tag: 'Automations',
    routes: [
      route({
        id: 'listRuns',
        method: 'get',
        path: '/runs',
        summary: "List the caller's runs",
        query: listQuery,
        responses: { 200: json('Runs, newest first.', RunList) },
        handle: async (ctx, { query }) => {
          ctx.body = await runs.listRuns.execute({ principal: principalOf(ctx), ...query });
        },
      }),
      route({
        id: 'getRun',
        method: 'get',
        path: '/runs/:id',
        summary: 'Read a run with its transcript',
        params: { id: runId },
        responses: { 200: json('The run and what the agent said and did.', RunDetail) },
        handle: async (ctx, { params }) => {
          ctx.body = await runs.getRun.execute({ principal: principalOf(ctx), runId: params.id });
        },
      }),
      route({
        id: 'stopRun',
        method: 'post',
        path: '/runs/:id/stop',
        summary: 'Stop a run',
        description:
          'Cooperative and idempotent; reaches a run on another instance. The current step finishes and parked approvals of the run are dropped.',
        params: { id: runId },
        body: jsonBody(noBody),
        responses: { 200: json('The run, stopping or stopped.', Run) },
        errors: ['unavailable'],
        handle: async (ctx, { params }) => {
          ctx.body = await runs.stopRun.execute({ principal: principalOf(ctx), runId: params.id });
        },
      }),
    ],
  };
}
