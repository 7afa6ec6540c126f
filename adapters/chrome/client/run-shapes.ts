import { z } from 'zod';

const attempt = z.object({
  number: z.number(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  outcome: z.string().nullable(),
  error: z.string().nullable(),
  retryAt: z.string().nullable(),
});
const previewed = z.object({ toolCallId: z.string(), tool: z.string(), risk: z.string(), egress: z.boolean(), preview: z.string() });
const webhookLog = z.object({
  id: z.string(),
  url: z.string(),
  type: z.string(),
  state: z.string(),
  nextAttemptAt: z.string().nullable(),
  attempts: z.array(
    z.object({ number: z.number(), at: z.string(), status: z.number().nullable(), error: z.string().nullable(), durationMs: z.number() }),
  ),
});
/** A run as the wire lists it; its page reads more (`runDetail`). */
export const runSummary = z.object({
  id: z.string(),
  automationId: z.string(),
  state: z.string(),
  createdAt: z.string(),
  startedAt: z.string().nullable().optional(),
  endedAt: z.string().nullable().optional(),
  stopRequestedAt: z.string().nullable().optional(),
  ending: z.string().nullable().optional(),
  error: z.string().nullable().optional(),
  cause: z.object({ kind: z.string(), of: z.string().optional() }).passthrough().optional(),
  dryRun: z.boolean().optional(),
  nextAttemptAt: z.string().nullable().optional(),
  failedCalls: z.number().optional(),
});
export type RunSummary = z.output<typeof runSummary>;
/** A run as its page reads it: its attempts, a dry run's previews, the completion webhook's log and the transcript. */
export const runDetail = runSummary.extend({
  attempts: z.array(attempt).optional(),
  previews: z.array(previewed).optional(),
  webhook: webhookLog.nullable().optional(),
  messages: z.array(z.object({ id: z.string(), role: z.string(), parts: z.array(z.object({ type: z.string() }).passthrough()) })),
});
export type RunDetail = z.output<typeof runDetail>;
export type RunAttempt = z.output<typeof attempt>;
export type RunPreview = z.output<typeof previewed>;
export type RunWebhookLog = z.output<typeof webhookLog>;
export const automationName = z.object({ name: z.string() });
/** What starting a run answers: the new run's id. */
export const startedRun = z.object({ id: z.string() });
