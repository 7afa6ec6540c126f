import { z } from 'zod';
import type { AppPrimitives } from '../../domain/apps/app.js';
import type { AppDocument } from '../../domain/apps/app-document.js';

/**
 * The frame of a stored app document. Its nodes, bindings and actions were checked by
 * `validateDocument` when the version was made and are not re-checked on every read.
 */
const documentFrame = z.object({
  format: z.string(),
  title: z.string(),
  ui: z.string(),
  scope: z.string(),
  root: z.string(),
  nodes: z.record(z.string(), z.unknown()),
  data: z.record(z.string(), z.unknown()),
  actions: z.record(z.string(), z.unknown()),
  server: z.unknown(),
  egress: z.unknown(),
});
const storedDocument = z.custom<AppDocument>((value) => documentFrame.safeParse(value).success, 'not an app document');

/** The shape apps are stored in; the book checks every row it reads against it. */
export const appShape = z.object({
  id: z.string(),
  owner: z.string(),
  document: storedDocument,
  version: z.string(),
  versionNumber: z.number().int().positive(),
  contentHash: z.string(),
  pin: z.object({ slot: z.string(), baselineHash: z.string(), driftedTo: z.string().nullable(), trail: z.array(z.string()) }).nullable(),
  served: z.object({ snapshotId: z.string(), servedAt: z.string() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
}) satisfies z.ZodType<AppPrimitives>;
