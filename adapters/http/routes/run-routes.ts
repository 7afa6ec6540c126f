import { z } from 'zod';
import type { RunUseCases } from '../../../ports/use-cases/runs.js';
import { Run, RunDetail, RunList } from '../shapes/automation-shapes.js';
import { idParam } from '../shapes/path-params.js';
import { json, jsonBody, route } from '../wire-route.js';
import { principalFamily, type WireRoutes } from '../wire-routes.js';
import { principalOf } from '../wire-state.js';
import { callerRoutes, pageQuery } from './caller-routes.js';
import { defined } from '../../../domain/defined.js';

const runId = idParam('run');

const listQuery = pageQuery.extend({
  automationId: z
    .string()
    .regex(/^atm_[0-9A-Za-z_-]{10,64}$/, 'must be an automation id (atm_…)')
    .optional(),
});

const automationId = idParam('automation');

/** As much as the agent is shown of a real delivery. */
const DRY_RUN_INPUT_LIMIT = 32_000;

const dryRunBody = z.union([
  z.undefined(),
  z.strictObject({
    input: z
      .string()
      .max(DRY_RUN_INPUT_LIMIT)
      .optional()
      .describe('What the trigger would bring (a delivery body), shown to the agent before the task as a real delivery would be.'),
  }),
]);

/** Runs of automations: listed, read with their transcript, stopped, run again, and an automation tried without acting. */
export function runRoutes(runs: RunUseCases): WireRoutes {
  const run = callerRoutes(runs, { param: runId, key: 'runId' });
  return principalFamily('Automations', [
    run.list('/runs', 'listRuns', {
      summary: "List the caller's runs",
      query: listQuery,
      responses: { 200: json('Runs, newest first.', RunList) },
    }),
    run.get('/runs/:id', 'getRun', {
      summary: 'Read a run with its transcript',
      responses: { 200: json('The run and what the agent said and did.', RunDetail) },
    }),
    run.post('/runs/:id/stop', 'stopRun', {
      summary: 'Stop a run',
      description:
        'Cooperative and idempotent; reaches a run on another instance. The current step finishes and parked approvals of the run are dropped.',
      responses: { 200: json('The run, stopping or stopped.', Run) },
      errors: ['unavailable'],
    }),
    run.post('/runs/:id/rerun', 'rerunRun', {
      summary: 'Run it again with the same input',
      description:
        "Starts a new run of the run's automation with the same prompt and input (a dry run's rerun is a dry run), under the automation's retry and concurrency; it queues behind runs in flight. 409 when the automation was deleted; 429 when the owner's `runs` or `tokens` budget has nothing left (a dry run's rerun pays its `runs` unit here).",
      responses: { 201: json('The new run (`cause: {kind: "rerun", of}`).', Run) },
      errors: ['conflict', 'rate-limited', 'unavailable'],
    }),
    route({
      id: 'runAutomationNow',
      method: 'post',
      path: '/automations/:id/run',
      summary: 'Run an automation now',
      description:
        "A real run now, armed or not, like a scheduled one: its calls act as the owner away, with the automation's standing grants only (a write it was not granted waits for the owner's approval), under its retry and concurrency, queued behind runs in flight. 429 when the owner's `runs` or `tokens` budget has nothing left, before anything is kept.",
      params: { id: automationId },
      body: jsonBody(dryRunBody),
      responses: { 201: json('The run, queued (`cause: {kind: "run-now", venue: "wire"}`).', Run) },
      errors: ['rate-limited', 'unavailable'],
      handle: async (ctx, { params, body }) => {
        ctx.status = 201;
        ctx.body = await runs.runAutomationNow.execute({
          principal: principalOf(ctx),
          automationId: params.id,
          venue: 'wire',
          ...defined({ input: body?.input }),
        });
      },
    }),
    route({
      id: 'dryRunAutomation',
      method: 'post',
      path: '/automations/:id/dry-run',
      summary: 'Try an automation without it acting',
      description:
        "Runs the task now (armed or not): reads run, and every write, destructive and egress call is recorded with its preview instead of executed. Answers once the run ended, with `previews`. No retries, no concurrency slot, no completion webhook. It pays one of the owner's `runs` and counts as one of their turns in flight: 429 when either is spent (or no `tokens` are left), before anything is kept.",
      params: { id: automationId },
      body: jsonBody(dryRunBody),
      responses: { 201: json('The dry run, ended, with its transcript and previews.', RunDetail) },
      errors: ['rate-limited', 'unavailable'],
      handle: async (ctx, { params, body }) => {
        ctx.status = 201;
        ctx.body = await runs.dryRunAutomation.execute({
          principal: principalOf(ctx),
          automationId: params.id,
          ...defined({ input: body?.input }),
        });
      },
    }),
  ]);
}
