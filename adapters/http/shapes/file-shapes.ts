import { z } from 'zod';

export const UploadedFile = z
  .object({
    id: z.string().describe('The file id (`fil_…`).'),
    threadId: z.string(),
    url: z
      .string()
      .describe("Where the owner reads the bytes (`{wire}/files/:id`); a message's `file` part carries this url to attach the file."),
    filename: z.string(),
    mediaType: z.string().describe('What the bytes were judged to be from their content (never the type the client sent).'),
    size: z.number().int(),
    createdAt: z.string(),
  })
  .meta({ id: 'UploadedFile' });
