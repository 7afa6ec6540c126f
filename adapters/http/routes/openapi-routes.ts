import { createHash } from 'node:crypto';
import { z } from 'zod';
import { json, route } from '../wire-route.js';
import { openFamily, type WireRoutes } from '../wire-routes.js';

const Document = z.looseObject({ openapi: z.literal('3.1.0') }).meta({ id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document.' });

/**
 * `GET /openapi.json`: this document, for any OpenAPI viewer or client generator. No principal
 * (it describes routes, holds no data), in every composition; built once, on first asking.
 */
export function openApiRoutes(document: () => Readonly<Record<string, unknown>>): WireRoutes {
  let served: { text: string; etag: string } | null = null;
  const serve = () => {
    if (!served) {
      const text = JSON.stringify(document());
      served = { text, etag: `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"` };
    }
    return served;
  };
  return openFamily('Wire', [
    route({
      id: 'getOpenApiDocument',
      method: 'get',
      path: '/openapi.json',
      summary: 'This document',
      description: 'The wire as this deployment mounts it (unmounted families are absent). Open it in any OpenAPI viewer.',
      responses: {
        200: json('The OpenAPI 3.1 document.', Document, {
          ETag: { description: 'Send it back in `If-None-Match`: 304 while the document is unchanged.' },
        }),
        304: { description: 'Unchanged.' },
      },
      handle: (ctx) => {
        const { text, etag } = serve();
        // The document describes no one's data: any origin (a hosted viewer) may read it.
        ctx.set({ 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' });
        ctx.etag = etag;
        ctx.type = 'application/json';
        ctx.body = text;
        if (ctx.fresh) ctx.status = 304;
      },
    }),
  ]);
}
