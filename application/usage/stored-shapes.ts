import { z } from 'zod';
import type { UsageTallyPrimitives } from '../../domain/usage/usage-tally.js';
import type { TurnsInFlightPrimitives } from '../../domain/usage/turns-in-flight.js';

/** A usage tally as stored: one record per budget and key. */
export const usageTallyShape = z.object({
  id: z.string(),
  budget: z.string(),
  key: z.string(),
  buckets: z.array(z.tuple([z.number(), z.number()]).readonly()),
}) satisfies z.ZodType<UsageTallyPrimitives>;

/** A key's turns in flight as stored: one record per subject or shared address. */
export const turnsInFlightShape = z.object({
  id: z.string(),
  key: z.string(),
  holds: z.array(z.object({ id: z.string(), until: z.string() })),
}) satisfies z.ZodType<TurnsInFlightPrimitives>;
