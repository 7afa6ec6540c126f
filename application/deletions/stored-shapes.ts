import { z } from 'zod';
import { DELETABLE_KINDS, type PendingDeletionPrimitives } from '../../domain/deletions/pending-deletion.js';

/** The shape pending deletions are stored in; the book checks every row it reads against it. */
export const pendingDeletionShape = z.object({
  id: z.string(),
  kind: z.enum(DELETABLE_KINDS),
  owner: z.string(),
  principal: z.object({ subject: z.string(), kind: z.string(), name: z.string().optional(), email: z.string().optional() }),
  label: z.string(),
  requestedAt: z.string(),
  undoUntil: z.string(),
  purgingSince: z.string().optional(),
}) satisfies z.ZodType<PendingDeletionPrimitives>;
