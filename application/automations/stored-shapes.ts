import { z } from 'zod';
import type { AutomationPrimitives } from '../../domain/automations/automation.js';

/** The person an automation (and each of its runs) works for, as stored. */
export const ownerShape = z.object({ subject: z.string(), kind: z.string(), name: z.string().optional(), email: z.string().optional() });

export const retryShape = z.object({ max: z.number().int(), backoffSeconds: z.number() });

export const concurrencyShape = z.object({ limit: z.number().int(), whenBusy: z.enum(['queue', 'skip']) });

/** The shape automations are stored in; the book checks every row it reads against it. */
export const automationShape = z.object({
  id: z.string(),
  name: z.string(),
  trigger: z.union([
    z.object({ kind: z.literal('schedule'), cron: z.string(), timezone: z.string().optional() }),
    z.object({ kind: z.literal('webhook'), source: z.string() }),
  ]),
  task: z.object({ prompt: z.string(), tools: z.array(z.string()).optional() }),
  armed: z.boolean(),
  armedAt: z.string().nullable(),
  owner: ownerShape,
  createdAt: z.string(),
  updatedAt: z.string(),
  retry: retryShape.optional(),
  concurrency: concurrencyShape.optional(),
  notify: z.object({ url: z.string(), sealedSecret: z.string(), setAt: z.string() }).nullable().optional(),
}) satisfies z.ZodType<AutomationPrimitives>;
