import { z } from 'zod';
import { RUN_ENDINGS, RUN_NOW_VENUES, RUN_STATES, type StoredRunPrimitives } from '../../domain/runs/run.js';
import { COMPLETION_EVENTS, type CompletionWebhookPrimitives } from '../../domain/runs/completion-webhook.js';
import type { RunSlotsPrimitives } from '../../domain/runs/run-slots.js';
import { concurrencyShape, ownerShape, retryShape } from '../automations/stored-shapes.js';

const attemptShape = z.object({
  number: z.number().int(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  outcome: z.enum(['succeeded', 'failed', 'cancelled', 'interrupted']).nullable(),
  error: z.string().nullable(),
  retryAt: z.string().nullable(),
});

/** The shape runs are stored in; the book checks every row it reads against it. */
export const runShape = z.object({
  id: z.string(),
  automationId: z.string(),
  owner: ownerShape,
  startedBy: z.string(),
  cause: z.union([
    z.object({ kind: z.literal('schedule'), slot: z.string() }),
    z.object({ kind: z.literal('webhook'), source: z.string(), deliveryId: z.string() }),
    z.object({ kind: z.literal('rerun'), of: z.string() }),
    z.object({ kind: z.literal('dry-run') }),
    z.object({ kind: z.literal('run-now'), venue: z.enum(RUN_NOW_VENUES) }),
  ]),
  prompt: z.string(),
  input: z.string().nullable(),
  state: z.enum(RUN_STATES),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  stopRequestedAt: z.string().nullable(),
  ending: z.enum(RUN_ENDINGS).nullable(),
  error: z.string().nullable(),
  lease: z.object({ holder: z.string(), until: z.string(), watched: z.literal(true).optional() }).nullable(),
  // Added with retries, concurrency and dry runs: rows written before read with their defaults.
  dryRun: z.boolean().optional(),
  retry: retryShape.optional(),
  concurrency: concurrencyShape.optional(),
  attempts: z.array(attemptShape).optional(),
  nextAttemptAt: z.string().nullable().optional(),
  followUp: z.enum(['due', 'done']).nullable().optional(),
}) satisfies z.ZodType<StoredRunPrimitives>;

/** The concurrency slots of one automation, as stored. */
export const runSlotsShape = z.object({
  automationId: z.string(),
  holders: z.array(z.string()),
}) satisfies z.ZodType<RunSlotsPrimitives>;

/** A run's completion webhook and its delivery log, as stored. */
export const completionWebhookShape = z.object({
  id: z.string(),
  runId: z.string(),
  automationId: z.string(),
  owner: z.string(),
  url: z.string(),
  sealedSecret: z.string(),
  type: z.enum(COMPLETION_EVENTS),
  body: z.string(),
  createdAt: z.string(),
  state: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.array(
    z.object({
      number: z.number().int(),
      at: z.string(),
      status: z.number().int().nullable(),
      error: z.string().nullable(),
      durationMs: z.number(),
    }),
  ),
  nextAttemptAt: z.string().nullable(),
  lease: z.object({ holder: z.string(), until: z.string() }).nullable(),
}) satisfies z.ZodType<CompletionWebhookPrimitives>;
