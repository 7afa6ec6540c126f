import { z } from 'zod';
import type { AppPrimitives } from '../../domain/apps/app.js';
import { APP_FORMAT, type AppDocument } from '../../domain/apps/app-document.js';

/**
 * The frame of a stored app document. Its nodes, bindings and actions were checked by
 * `validateDocument` when the version was made and are not re-checked on every read.
 */
const documentFrame = z.object({
  format: z.literal(APP_FORMAT),
  title: z.string(),
  ui: z.enum(['tree', 'http']),
  scope: z.enum(['owner', 'shared']),
  root: z.string(),
  nodes: z.record(z.string(), z.unknown()),
  data: z.record(z.string(), z.unknown()),
  actions: z.record(z.string(), z.unknown()),
  server: z.object({ files: z.record(z.string(), z.string()) }).nullable(),
  egress: z.object({ allowDomains: z.array(z.string()) }).nullable(),
}) satisfies z.ZodType<Pick<AppDocument, 'format' | 'title' | 'ui' | 'scope' | 'root' | 'server' | 'egress'>>;
const storedDocument = documentFrame as unknown as z.ZodType<AppDocument>;

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
