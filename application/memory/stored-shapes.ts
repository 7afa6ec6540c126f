import { z } from 'zod';
import type { MemoryPrimitives } from '../../domain/memory/memory.js';

/** The shape memories are stored in; the book checks every row it reads against it. */
export const memoryShape = z.object({
  id: z.string(),
  owner: z.string(),
  org: z.string().nullable(),
  text: z.string(),
  source: z.union([
    z.object({ kind: z.literal('agent'), threadId: z.string().optional(), runId: z.string().optional(), toolCallId: z.string() }),
    z.object({ kind: z.literal('person') }),
  ]),
  createdAt: z.string(),
  updatedAt: z.string(),
}) satisfies z.ZodType<MemoryPrimitives>;
