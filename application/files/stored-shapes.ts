import { z } from 'zod';
import type { UploadedFilePrimitives } from '../../domain/files/uploaded-file.js';

/** The shape file metadata is stored in; the book checks every row it reads against it. */
export const uploadedFileShape = z.object({
  id: z.string(),
  owner: z.string(),
  thread: z.string(),
  filename: z.string(),
  mediaType: z.string(),
  size: z.number().int().nonnegative(),
  createdAt: z.string(),
}) satisfies z.ZodType<UploadedFilePrimitives>;
