import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { InvalidInput, PayloadTooLarge } from '../../domain/errors.js';
import { assertJsonDepth } from '../../domain/json-depth.js';
import { NULL_BODY_STATUS } from '../shared/hop-by-hop.js';
import { lingerOnClose } from '../shared/unread-body.js';

/**
 * The request headers the SDK transport reads (content negotiation, the session, the protocol
 * version, the 2026-07-28 standard headers `Mcp-Method` and `Mcp-Name`, resumption). Only these are handed on: the bearer was checked already and travels as
 * `authInfo`, and building a `Headers` costs per header on every request.
 */
const TRANSPORT_HEADERS = ['accept', 'content-type', 'mcp-session-id', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'last-event-id'];

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
  const values = TRANSPORT_HEADERS.map((name) => ctx.req.headers[name]);
  if (parsed === NOT_JSON) return { request: requestOf(ctx.method, url, values, body), parsed };
  // A bodiless Request never changes: a client's next request with the same head reuses this one.
  const key = `${ctx.method} ${url}\n${values.join('\n')}`;
  let request = sameHead.get(key);
  if (!request) {
    request = requestOf(ctx.method, url, values, null);
    if (sameHead.size >= REMEMBERED_HEADS) sameHead.clear();
    sameHead.set(key, request);
  }
  return { request, parsed };
}

/** Bodiless Requests by method, URL and transport headers: one per session and protocol version, in practice. */
const sameHead = new Map<string, Request>();
const REMEMBERED_HEADS = 1024;

function requestOf(
  method: string,
  url: string,
  values: ReadonlyArray<string | string[] | undefined>,
  body: Uint8Array<ArrayBuffer> | null,
): Request {
  try {
    const headers = new Headers();
    TRANSPORT_HEADERS.forEach((name, i) => {
      const value = values[i];
      if (typeof value === 'string') headers.set(name, value);
    });
    return new Request(url, { method, headers, body });
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
 * Answers with a Web `Response`, on Node's response: its status and headers; a complete body whole
 * (with its length), an event stream as it is written, its head sent at once so the client sees the
 * stream open. When the client goes away the stream is destroyed, which cancels the `Response` body.
 */
export async function sendWebResponse(ctx: Context, response: Response): Promise<void> {
  const type = response.headers.get('content-type');
  if (response.body !== null && !NULL_BODY_STATUS.has(response.status) && type !== null && /^text\/event-stream\b/i.test(type)) {
    const { req, res } = ctx;
    ctx.respond = false;
    res.statusCode = response.status;
    for (const [name, value] of response.headers) res.setHeader(name, value);
    req.socket.setNoDelay(true);
    res.flushHeaders();
    pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), res).catch(() => undefined);
    return;
  }
  const body = NULL_BODY_STATUS.has(response.status) ? (await response.body?.cancel(), null) : Buffer.from(await response.arrayBuffer());
  sendAnswer(ctx, response.status, body, response.headers);
}

/** A JSON answer of Porter's own (an OAuth or JSON-RPC refusal), on Node's response. */
export function sendJson(ctx: Context, status: number, value: unknown, headers: Iterable<[string, string]> = []): void {
  sendAnswer(ctx, status, Buffer.from(JSON.stringify(value)), [['content-type', 'application/json; charset=utf-8'], ...headers]);
}

/**
 * Writes a complete answer straight to Node's response (`ctx.respond = false`: Koa writes nothing
 * after), so the door's hot path needs none of Koa's body handling. A refusal sent while the
 * request body is still arriving closes the connection cleanly (see lingerOnClose).
 */
function sendAnswer(ctx: Context, status: number, body: Buffer | null, headers: Iterable<[string, string]>): void {
  const { req, res } = ctx;
  ctx.respond = false;
  res.statusCode = status;
  for (const [name, value] of headers) {
    if (name === 'set-cookie') res.appendHeader(name, value);
    else res.setHeader(name, value);
  }
  // An empty answer (a 202) says so, where Koa would have written a status text.
  if (body) res.setHeader('Content-Length', body.length);
  if (status >= 400 && !req.complete) {
    res.setHeader('Connection', 'close');
    lingerOnClose(req, res);
  }
  res.end(body);
}
