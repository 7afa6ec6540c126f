import { z } from 'zod';
import type { UsageTallyPrimitives } from '../../domain/usage/usage-tally.js';

/** A usage tally as stored: one record per budget and key. */
export const usageTallyShape = z.object({
  id: z.string(),
  budget: z.string(),
  key: z.string(),
  buckets: z.array(z.tuple([z.number(), z.number()]).readonly()),
}) satisfies z.ZodType<UsageTallyPrimitives>;
