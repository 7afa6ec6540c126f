import { z } from 'zod';
import type { ThreadPrimitives } from '../../domain/threads/thread.js';

/** The shape thread summaries are stored in; the book checks every row it reads against it. */
export const threadShape = z.object({
  id: z.string(),
  owner: z.string(),
  title: z.string(),
  titledBy: z.enum(['generated', 'person']).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  messageCount: z.number().int().nonnegative(),
  activeTurn: z
    .object({
      id: z.string(),
      until: z.string(),
      stopRequested: z.literal(true).optional(),
      sent: z.string().optional(),
      holder: z.string().optional(),
    })
    .nullable(),
  waiting: z.array(z.object({ id: z.string(), until: z.string(), holder: z.string().optional() })).optional(),
  versions: z.array(z.object({ after: z.string(), shown: z.number().int().nonnegative(), kept: z.array(z.array(z.string())) })).optional(),
}) satisfies z.ZodType<ThreadPrimitives>;
