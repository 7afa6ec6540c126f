import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { InvalidInput, PayloadTooLarge } from '../../domain/errors.js';
import { assertJsonDepth } from '../../domain/json-depth.js';
import { HOP_BY_HOP_HEADERS, NULL_BODY_STATUS } from '../shared/hop-by-hop.js';

/** Headers that describe the connection to Porter, not the request: never handed on. */
const CONNECTION_HEADERS = new Set([...HOP_BY_HOP_HEADERS, 'host', 'content-length']);

/** Marks a body that is not JSON: the SDK reads it itself and answers its parse error. */
export const NOT_JSON: unique symbol = Symbol('not JSON');

/**
 * The Koa request as a Web `Request` addressed to `url`, and its body: its method, its end-to-end
 * headers and, for a POST, its body, read from the socket once and refused past `maxBodyBytes`
 * (`PayloadTooLarge`), then parsed once (`parsed`, handed to the SDK as its `parsedBody`, so the
 * `Request` carries no body), or `NOT_JSON` (the `Request` then carries the bytes for the SDK to
 * refuse in its words). A body that breaks off, nests deeper than `JSON_DEPTH_LIMIT` (the SDK
 * parses and validates it recursively, tool arguments included), or a header no `Request` can
 * carry, is `InvalidInput`.
 */
export async function webRequestOf(
  ctx: Context,
  url: string,
  maxBodyBytes: number,
): Promise<{ readonly request: Request; readonly parsed: unknown }> {
  const body = ctx.method === 'POST' ? await readBody(ctx, maxBodyBytes) : null;
  if (body) assertJsonDepth(body, 'The JSON-RPC body');
  const parsed = body === null ? undefined : parseJson(body);
  try {
    const headers = new Headers();
    const raw = ctx.req.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      if (!CONNECTION_HEADERS.has(raw[i]!.toLowerCase())) headers.append(raw[i]!, raw[i + 1]!);
    }
    return { request: new Request(url, { method: ctx.method, headers, body: parsed === NOT_JSON ? body : null }), parsed };
  } catch {
    throw new InvalidInput('The request has a header that is not valid HTTP');
  }
}

function parseJson(body: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  } catch {
    return NOT_JSON;
  }
}

async function readBody(ctx: Context, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  try {
    const bytes = await getRawBody(ctx.req, { limit, length: ctx.get('content-length') || null });
    return new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
  } catch (error) {
    if ((error as { type?: unknown }).type === 'entity.too.large')
      throw new PayloadTooLarge(`The body is larger than ${limit} bytes`, { limit });
    throw new InvalidInput('The request body could not be read');
  }
}

/**
 * Answers through Koa with a Web `Response`: its status and headers; a complete body whole (with
 * its length), an event stream as it is written, its head sent at once so the client sees the
 * stream open. When the client goes away Koa destroys the stream, which cancels the `Response` body.
 */
export async function sendWebResponse(ctx: Context, response: Response): Promise<void> {
  ctx.status = response.status;
  for (const [name, value] of response.headers) {
    if (name === 'set-cookie') ctx.append(name, value);
    else ctx.set(name, value);
  }
  const type = response.headers.get('content-type');
  if (response.body === null || NULL_BODY_STATUS.has(response.status)) {
    await response.body?.cancel();
    if (NULL_BODY_STATUS.has(response.status)) {
      ctx.body = null;
      return;
    }
    // An empty answer (202, say): Koa would answer a null body with 204, or with the status text.
    ctx.body = Buffer.alloc(0);
    if (type === null) ctx.remove('Content-Type');
    return;
  }
  if (type !== null && /^text\/event-stream\b/i.test(type)) {
    ctx.req.socket.setNoDelay(true);
    ctx.body = Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>);
    ctx.res.flushHeaders();
    return;
  }
  ctx.body = Buffer.from(await response.arrayBuffer());
  if (type === null) ctx.remove('Content-Type');
}
