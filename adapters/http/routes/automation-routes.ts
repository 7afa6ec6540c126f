import { z } from 'zod';
import { HTTP_URL } from '../../../domain/http-url.js';
import { WEBHOOK_SOURCE_NAME } from '../../../domain/webhooks/delivery.js';
import type { AutomationUseCases } from '../../../ports/use-cases/automations.js';
import { ArmResult, Automation, AutomationList, SavedAutomation } from '../shapes/automation-shapes.js';
import { idParam } from '../shapes/path-params.js';
import { writtenText } from '../shapes/written-text.js';
import { json, jsonBody } from '../wire-route.js';
import { principalFamily, type WireRoutes } from '../wire-routes.js';
import { callerRoutes } from './caller-routes.js';

/** The shape of a cron expression: 5 to 7 fields, or a nickname. Their values croner checks (`AutomationRules`). */
const CRON_SHAPE = /^\s*(?:@[A-Za-z]+|\S+(?:\s+\S+){4,6})\s*$/;

const trigger = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('schedule'),
    cron: z
      .string()
      .trim()
      .max(120)
      .regex(
        CRON_SHAPE,
        'a schedule has five parts: minute, hour, day of the month, month and day of the week (optionally seconds first and a year last), e.g. "0 8 * * 1-5" (8:00 on weekdays), or a nickname such as @daily',
      )
      .describe(
        'Five fields (minute, hour, day of the month, month, day of the week), optionally seconds first and a year last, or a nickname (`@daily`); e.g. `0 8 * * 1-5`. A field out of its range, or a schedule that never fires, is 400 `validation` naming `trigger.cron`.',
      ),
    timezone: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe('An IANA time zone, e.g. `Europe/Paris` (default UTC); an unknown one is 400 `validation`.'),
  }),
  z.strictObject({
    kind: z.literal('webhook'),
    source: z
      .string()
      .regex(WEBHOOK_SOURCE_NAME, 'must be a registered source name (a-z, 0-9, _ and -)')
      .describe('A webhook source this deployment registered (`webhooks.sources`); another is 400 `validation`.'),
  }),
]);

const task = z.strictObject({
  prompt: writtenText(20_000),
  tools: z
    .array(z.string().min(1).max(128))
    .max(50)
    .optional()
    .describe('Tools the task may call, by name; a name no tool has is 400 `validation`.'),
});

const name = writtenText(200);

/** Omitted fields keep their defaults: two retries, 30 s then 60 s. */
const retry = z.strictObject({
  max: z.number().int().min(0).max(10).default(2),
  backoffSeconds: z.number().int().min(0).max(86_400).default(30),
});

/** Omitted fields keep their defaults: one run at a time, the others queued. */
const concurrency = z.strictObject({
  limit: z.number().int().min(1).max(100).default(1),
  whenBusy: z.enum(['queue', 'skip']).default('queue'),
});

/** Where completion webhooks go; null sends none. Setting it mints a new secret, shown in the answer once. */
const notify = z
  .strictObject({
    url: z
      .string()
      .max(2000)
      .regex(HTTP_URL, 'must be an absolute http or https URL without credentials')
      .describe(
        'An absolute http(s) URL without credentials. Porter must be willing to send there: an address the egress guard refuses (loopback or private in production, where the name resolves to one) is 400 `validation`.',
      ),
  })
  .nullable();

const createBody = z.strictObject({
  name,
  trigger,
  task,
  retry: retry.optional(),
  concurrency: concurrency.optional(),
  notify: notify.optional(),
});

const changeBody = z
  .strictObject({
    name: name.optional(),
    trigger: trigger.optional(),
    task: task.optional(),
    retry: retry.optional(),
    concurrency: concurrency.optional(),
    notify: notify.optional(),
  })
  .refine(
    (body) => Object.values(body).some((value) => value !== undefined),
    'name, trigger, task, retry, concurrency or notify is required',
  )
  // What the refinement says, as JSON Schema says it (a JSON body has no undefined members).
  .meta({ minProperties: 1 });

const automationId = idParam('automation');

/** Automations: one record each, no trigger segment in the paths. Unmounted when `automations: false`. */
export function automationRoutes(automations: AutomationUseCases): WireRoutes {
  const automation = callerRoutes(automations, { param: automationId, key: 'automationId' });
  return principalFamily('Automations', [
    automation.list('/automations', 'listAutomations', {
      summary: "List the caller's automations",
      responses: { 200: json('Automations, newest first.', AutomationList) },
    }),
    automation.post('/automations', 'createAutomation', {
      summary: 'Create an automation (disarmed)',
      description:
        'With `notify`, the answer carries `notifySecret`, the `whsec_` secret its completion webhooks are signed with: shown this once.',
      body: jsonBody(createBody, 'automation'),
      responses: { 201: json('The new automation.', SavedAutomation) },
    }),
    automation.get('/automations/:id', 'getAutomation', {
      summary: 'Read an automation',
      responses: { 200: json('The automation.', Automation) },
    }),
    automation.patch('/automations/:id', 'changeAutomation', {
      summary: "Change an automation's name, trigger, task, retries, concurrency or completion webhook",
      description:
        'Trigger and task change only while disarmed. Setting `notify` mints a new secret, returned as `notifySecret` in this answer only; `notify: null` sends no more completion webhooks.',
      body: jsonBody(changeBody, 'change'),
      responses: { 200: json('The changed automation.', SavedAutomation) },
      errors: ['conflict', 'unavailable'],
    }),
    automation.delete('/automations/:id', 'deleteAutomation', {
      summary: 'Delete an automation',
      errors: ['unavailable'],
    }),
    automation.post('/automations/:id/arm', 'armAutomation', {
      summary: 'Arm an automation',
      description:
        'Asks a standing grant for each tool the task names (the asks wait in `/approvals`); denying one disarms the automation in the same decision.',
      responses: { 200: json('The armed automation and its asks.', ArmResult) },
      errors: ['conflict', 'unavailable'],
    }),
    automation.post('/automations/:id/disarm', 'disarmAutomation', {
      summary: 'Disarm an automation',
      responses: { 200: json('The disarmed automation.', Automation) },
      errors: ['unavailable'],
    }),
  ]);
}
