import { z } from 'zod';
import type { RunPrimitives } from '../../domain/runs/run.js';
import { ownerShape } from '../automations/stored-shapes.js';

/** The shape runs are stored in; the book checks every row it reads against it. */
export const runShape = z.object({
  id: z.string(),
  automationId: z.string(),
  owner: ownerShape,
  startedBy: z.string(),
  cause: z.union([
    z.object({ kind: z.literal('schedule'), slot: z.string() }),
    z.object({ kind: z.literal('webhook'), source: z.string(), deliveryId: z.string() }),
  ]),
  prompt: z.string(),
  input: z.string().nullable(),
  state: z.enum(['queued', 'running', 'waiting', 'succeeded', 'failed', 'cancelled']),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  stopRequestedAt: z.string().nullable(),
  ending: z.enum(['completed', 'stopped', 'interrupted', 'error']).nullable(),
  error: z.string().nullable(),
  lease: z.object({ holder: z.string(), until: z.string() }).nullable(),
}) satisfies z.ZodType<RunPrimitives>;
