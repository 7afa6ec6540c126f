import { z } from 'zod';
import { RUN_ENDINGS, RUN_NOW_VENUES, RUN_STATES } from '../../../domain/runs/run.js';
import { COMPLETION_EVENTS } from '../../../domain/runs/completion-webhook.js';
import { isoTime, nextCursor, UiMessage } from './common-shapes.js';

const Trigger = z
  .union([
    z.object({ kind: z.literal('schedule'), cron: z.string(), timezone: z.string().optional() }),
    z.object({ kind: z.literal('webhook'), source: z.string() }),
  ])
  .meta({ id: 'Trigger' });

const Retry = z
  .object({
    max: z.number().int().describe('Retries after the first attempt (0 to 10).'),
    backoffSeconds: z.number().int().describe('The wait before the first retry; each later wait doubles.'),
  })
  .meta({
    id: 'Retry',
    description: 'How a run that failed for a transient reason (model 5xx or timeout, store unavailable…) is tried again.',
  });

const Concurrency = z
  .object({
    limit: z.number().int().describe('Runs of this automation in flight at once (1 to 100).'),
    whenBusy: z
      .enum(['queue', 'skip'])
      .describe('`queue`: a run that arrives while `limit` are in flight waits its turn; `skip`: it is recorded as skipped.'),
  })
  .meta({ id: 'Concurrency' });

export const Automation = z
  .object({
    id: z.string().describe('The `atm_` id.'),
    name: z.string(),
    trigger: Trigger,
    task: z.object({ prompt: z.string(), tools: z.array(z.string()).optional() }),
    armed: z.boolean(),
    armedAt: isoTime.nullable(),
    owner: z.string().describe("The owner's subject: runs act as them, with their standing grants only."),
    createdAt: isoTime,
    updatedAt: isoTime,
    retry: Retry,
    concurrency: Concurrency,
    notify: z
      .object({ url: z.string(), setAt: isoTime })
      .nullable()
      .describe('Where completion webhooks go (Standard Webhooks, signed); the secret is never shown here.'),
    nextRunAt: isoTime.nullable().optional().describe('For an armed schedule: when it fires next.'),
  })
  .meta({ id: 'Automation' });

export const SavedAutomation = Automation.extend({
  notifySecret: z
    .string()
    .optional()
    .describe('Only when `notify` was set by this request: the `whsec_` secret completion webhooks are signed with. Shown once.'),
}).meta({ id: 'SavedAutomation' });

export const AutomationList = z.object({ automations: z.array(Automation), nextCursor }).meta({ id: 'AutomationList' });

export const ArmResult = z
  .object({
    automation: Automation,
    asks: z.array(z.object({ approvalId: z.string(), tool: z.string() })).describe('The standing-grant asks now waiting in `/approvals`.'),
  })
  .meta({ id: 'ArmResult' });

const Attempt = z
  .object({
    number: z.number().int(),
    startedAt: isoTime,
    endedAt: isoTime.nullable(),
    outcome: z
      .enum(['succeeded', 'failed', 'cancelled', 'interrupted'])
      .nullable()
      .describe('Null while it goes on (or waits for an approval).'),
    error: z.string().nullable(),
    retryAt: isoTime.nullable().describe('For a failed attempt that was tried again: when the next one was due.'),
  })
  .meta({ id: 'RunAttempt' });

const runFields = {
  id: z.string().describe('The `run_` id.'),
  automationId: z.string(),
  state: z.enum(RUN_STATES).describe('`skipped`: it arrived while its automation was busy and its concurrency says `skip`.'),
  owner: z.string(),
  startedBy: z
    .string()
    .describe('Who started it: `porter:scheduler`, `porter:webhook:<source>`, or the owner for a rerun, a dry run or a run asked for now.'),
  cause: z.union([
    z.object({ kind: z.literal('schedule'), slot: z.string() }),
    z.object({ kind: z.literal('webhook'), source: z.string(), deliveryId: z.string() }),
    z.object({ kind: z.literal('rerun'), of: z.string().describe('The run it repeats.') }),
    z.object({ kind: z.literal('dry-run') }),
    z.object({
      kind: z.literal('run-now'),
      venue: z
        .enum(RUN_NOW_VENUES)
        .describe('Where the owner asked for it: `mcp` (the door), `chat`, or `wire` (`POST /automations/{id}/run`).'),
    }),
  ]),
  createdAt: isoTime,
  startedAt: isoTime.nullable(),
  endedAt: isoTime.nullable(),
  stopRequestedAt: isoTime.nullable(),
  ending: z.enum(RUN_ENDINGS).nullable(),
  error: z.string().nullable(),
  dryRun: z.boolean().describe('Every write, destructive and egress call was previewed instead of executed.'),
  attempts: z.array(Attempt).describe('Every attempt, oldest first: a retry after a transient failure is an attempt of its own.'),
  nextAttemptAt: isoTime.nullable().describe('A queued run waiting to be tried again: when.'),
  failedCalls: z
    .number()
    .int()
    .describe('How many of its tool calls ended in an error: a `succeeded` run with some finished with failed calls. 0 until it succeeds.'),
};

export const Run = z.object(runFields).meta({ id: 'Run' });

export const RunList = z.object({ runs: z.array(Run), nextCursor }).meta({ id: 'RunList' });

const PreviewedCall = z
  .object({
    toolCallId: z.string(),
    tool: z.string(),
    risk: z.enum(['read', 'write', 'destructive']),
    egress: z.boolean(),
    preview: z.string().describe('What the call would have done.'),
  })
  .meta({ id: 'PreviewedCall' });

const WebhookDeliveryLog = z
  .object({
    id: z.string().describe('The `evt_` id, sent as `webhook-id` on every attempt.'),
    url: z.string(),
    type: z.enum(COMPLETION_EVENTS),
    state: z.enum(['pending', 'delivered', 'failed']),
    createdAt: isoTime,
    nextAttemptAt: isoTime.nullable(),
    attempts: z.array(
      z.object({
        number: z.number().int(),
        at: isoTime,
        status: z.number().int().nullable().describe("The receiver's HTTP status; null when none answered."),
        error: z.string().nullable(),
        durationMs: z.number(),
      }),
    ),
  })
  .meta({ id: 'WebhookDeliveryLog' });

export const RunDetail = z
  .object({
    ...runFields,
    messages: z.array(UiMessage).describe('What the agent said and did.'),
    previews: z.array(PreviewedCall).describe('In a dry run: the calls previewed instead of executed, in order.'),
    webhook: WebhookDeliveryLog.nullable().describe('The completion webhook and each attempt at delivering it; null when there is none.'),
  })
  .meta({ id: 'RunDetail' });

export const RunIds = z.object({ runIds: z.array(z.string()) }).meta({ id: 'RunIds' });
