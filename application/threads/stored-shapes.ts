import { z } from 'zod';
import type { ThreadPrimitives } from '../../domain/threads/thread.js';

/** The shape thread summaries are stored in; the book checks every row it reads against it. */
export const threadShape = z.object({
  id: z.string(),
  owner: z.string(),
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  messageCount: z.number().int().nonnegative(),
  activeTurn: z.object({ id: z.string(), until: z.string(), stopRequested: z.literal(true).optional() }).nullable(),
  waiting: z.array(z.object({ id: z.string(), until: z.string() })).optional(),
}) satisfies z.ZodType<ThreadPrimitives>;
