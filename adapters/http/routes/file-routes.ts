import { Readable } from 'node:stream';
import { z } from 'zod';
import { UnsupportedMediaType } from '../../../domain/errors.js';
import type { FileUseCases, FileView } from '../../../ports/use-cases/files.js';
import { mediaType } from '../floor/csrf-floor.js';
import { UploadedFile } from '../shapes/file-shapes.js';
import { idParam } from '../shapes/path-params.js';
import { bytes, json, ownBody, route } from '../wire-route.js';
import { principalFamily, type WireRoutes } from '../wire-routes.js';
import { principalOf } from '../wire-state.js';
import { defined } from '../../../domain/defined.js';

const threadId = idParam('thread');
const fileId = idParam('file');

/**
 * The body types a cross-site form can send without a CORS preflight. The upload is exempt from
 * the JSON-only CSRF floor (its body is the file), so it refuses these instead: any other type
 * forces the preflight another origin cannot pass.
 */
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain', '']);

const uploadQuery = z.strictObject({
  filename: z.string().min(1).max(255).optional().describe('The name to show (path parts and control characters are dropped).'),
  type: z
    .string()
    .max(255)
    .optional()
    .describe("The file's own type when the body is sent as `application/octet-stream`; a hint only, judged against the bytes."),
});

/** Uploads: a file streamed into a thread, and read back by its owner. */
export function fileRoutes(files: FileUseCases, options: { mount: string }): WireRoutes {
  const urlOf = (file: FileView) => `${options.mount}/files/${file.id}`;
  return principalFamily('Files', [
    route({
      id: 'uploadFile',
      method: 'post',
      path: '/threads/:id/files',
      summary: 'Attach a file to a thread',
      description:
        "Streams the body (the file's bytes) into the file store. Its type is judged from the bytes: a type the host does not accept (`uploads.accept`), bytes that are not what they claim, or an empty body are 415; a body over `uploads.maxBytes` is 413, refused while reading, with nothing stored. " +
        "Send the bytes as the file's own type or as `application/octet-stream` (with `type`); the form types (`text/plain`, `multipart/form-data`, `application/x-www-form-urlencoded`) are refused (415), so another site cannot send one. " +
        "Counts against the caller's `uploadBytes` budget (429). Attach the file to a message with a `file` part carrying the answer's `url`.",
      params: { id: threadId },
      query: uploadQuery,
      body: ownBody("The file's bytes.", { '*/*': null }),
      responses: { 201: json('The stored file.', UploadedFile) },
      errors: ['validation', 'unsupported-media-type', 'payload-too-large', 'rate-limited', 'unavailable'],
      handle: async (ctx, { params, query }) => {
        const sent = mediaType(ctx.get('content-type'));
        if (FORM_TYPES.has(sent))
          throw new UnsupportedMediaType(
            "Send the file's bytes as its own type or as application/octet-stream (with ?type=), not as a form type",
          );
        const declaredType = sent === 'application/octet-stream' && query.type ? query.type : sent;
        const file = await files.uploadFile.execute({
          principal: principalOf(ctx),
          threadId: params.id,
          filename: query.filename ?? 'file',
          declaredType,
          ...defined({ declaredLength: ctx.request.length }),
          chunks: ctx.req,
        });
        ctx.status = 201;
        ctx.body = { ...file, url: urlOf(file) };
      },
    }),
    route({
      id: 'readFile',
      method: 'get',
      path: '/files/:id',
      summary: 'Read an uploaded file',
      description:
        "The owner's file, streamed, as its judged type; anyone else's is 404. Answered in a sandbox (`Content-Security-Policy: sandbox`) and with `nosniff`, so a file never runs as this origin's page.",
      params: { id: fileId },
      responses: { 200: bytes('The bytes.', '*/*') },
      errors: ['unavailable'],
      handle: async (ctx, { params }) => {
        const { file, chunks } = await files.readFile.execute({ principal: principalOf(ctx), fileId: params.id });
        ctx.set('Content-Type', file.mediaType.startsWith('text/') ? `${file.mediaType}; charset=utf-8` : file.mediaType);
        ctx.set('Content-Length', String(file.size));
        ctx.set('Content-Disposition', `inline; filename="${file.filename}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`);
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.set('Content-Security-Policy', "sandbox; default-src 'none'");
        ctx.set('Cache-Control', 'private, max-age=3600');
        ctx.body = Readable.from(chunks);
      },
    }),
  ]);
}
