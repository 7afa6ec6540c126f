import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { Context } from 'koa';
import { InvalidInput, PayloadTooLarge } from '../../domain/errors.js';
import { HOP_BY_HOP_HEADERS, NULL_BODY_STATUS } from '../shared/hop-by-hop.js';
import { lingerOnClose } from '../shared/unread-body.js';
import type { WebExchange, WebHandler } from '../shared/web-handler.js';
import type { WireRequest } from '../../ports/wire-request.js';
import { nodeWireRequest, wireRequestOf } from './wire-request.js';
import type { WireRouteContext } from './wire-state.js';

/**
 * The glue between Node's HTTP server (or Koa on it) and a framework-free `WebHandler`: Node's
 * request as a Web `Request` and the handler's `Response` written back on Node's response.
 */

/** The Koa glue: a wire route's `handle` answering with `handler` (Koa writes nothing after). */
export function koaWebHandle(handler: WebHandler): (ctx: WireRouteContext) => Promise<void> {
  return (ctx: Context) => {
    ctx.respond = false;
    return serveWeb(handler, ctx.req, ctx.res, `${ctx.protocol}://${ctx.host}`, () => wireRequestOf(ctx));
  };
}

/**
 * Answers Node's request with `handler`; `origin` as the host reads it (see `nodeOrigin`);
 * `wireRequest`, where the glue has a framework's context to build it from.
 */
export async function serveWeb(
  handler: WebHandler,
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
  wireRequest?: () => WireRequest,
): Promise<void> {
  const response = await handler(webRequestOf(req, origin), nodeExchange(req, res, origin, wireRequest));
  await writeWebResponse(req, res, response);
}

/**
 * `{protocol}://{host}` of a request as Koa reads them: `X-Forwarded-Proto` and `X-Forwarded-Host`
 * only behind a trusted proxy (`proxy`), else the socket's TLS and the `Host` header.
 */
export function nodeOrigin(req: IncomingMessage, proxy: boolean): string {
  let protocol = 'http';
  if ((req.socket as TLSSocket).encrypted) protocol = 'https';
  else if (proxy) {
    const forwarded = firstOf(req.headers['x-forwarded-proto']);
    if (forwarded) protocol = forwarded.toLowerCase();
  }
  let host = proxy ? firstOf(req.headers['x-forwarded-host']) : '';
  if (!host) {
    if (req.httpVersionMajor >= 2) host = firstOf(req.headers[':authority']);
    if (!host) host = firstOf(req.headers.host);
  }
  // A Host with userinfo (`user@host`) is invalid HTTP; the URL parser finds its host part, as Koa does.
  if (host.includes('@')) {
    try {
      host = new URL(`http://${host}`).host;
    } catch {
      host = '';
    }
  }
  return `${protocol}://${host}`;
}

function firstOf(value: string | string[] | undefined): string {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return '';
  const comma = text.indexOf(',');
  return (comma === -1 ? text : text.slice(0, comma)).trim();
}

/** Bodiless Requests by head (method, target, headers): a client's next request with the same head reuses one. */
const sameHead = new Map<string, Request>();
const REMEMBERED_HEADS = 1024;
/** Where a request whose origin is no URL is addressed: the handler reads and refuses `exchange.origin` itself. */
const NO_ORIGIN = 'http://origin.invalid';

/**
 * Node's request as a bodiless Web `Request` at `origin` + its target, with its end-to-end headers
 * (the body is read through the exchange). A `Request` never changes, so one is kept per head.
 */
export function webRequestOf(req: IncomingMessage, origin: string): Request {
  const target = req.url ?? '/';
  const method = req.method ?? 'GET';
  const raw = req.rawHeaders;
  const key = `${method} ${origin} ${target}\n${raw.join('\n')}`;
  let request = sameHead.get(key);
  if (!request) {
    request = new Request(urlOf(origin, target), { method, headers: headersOf(raw) });
    if (sameHead.size >= REMEMBERED_HEADS) sameHead.clear();
    sameHead.set(key, request);
  }
  return request;
}

function urlOf(origin: string, target: string): string {
  const url = target.startsWith('/') ? `${origin}${target}` : target;
  return URL.canParse(url) ? url : `${NO_ORIGIN}${target.startsWith('/') ? target : '/'}`;
}

function headersOf(raw: ReadonlyArray<string>): Headers {
  const headers = new Headers();
  try {
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!.toLowerCase();
      // The connection's own, and what describes a body the Request does not carry.
      if (HOP_BY_HOP_HEADERS.has(name) || name === 'content-length' || name === 'host') continue;
      headers.append(name, raw[i + 1]!);
    }
  } catch {
    throw new InvalidInput('The request has a header that is not valid HTTP');
  }
  return headers;
}

/** What Node knows of the exchange beyond the `Request`: its origin, its socket, its body. */
export function nodeExchange(req: IncomingMessage, res: ServerResponse, origin: string, wireRequest?: () => WireRequest): WebExchange {
  return new NodeExchange(req, res, origin, wireRequest);
}

/** A class, not an object of closures: every request through the glue makes one. */
class NodeExchange implements WebExchange {
  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    readonly origin: string,
    private readonly wireRequestOf: (() => WireRequest) | undefined,
  ) {}

  wireRequest(): WireRequest {
    return this.wireRequestOf ? this.wireRequestOf() : nodeWireRequest(this.req, this.origin);
  }

  get loopback(): boolean {
    const address = this.req.socket.localAddress;
    return address !== undefined && (address === '::1' || /^(::ffff:)?127\./i.test(address));
  }

  body(limit: number): Promise<Uint8Array<ArrayBuffer>> {
    return readBody(this.req, limit);
  }

  onClose(listener: () => void): void {
    this.res.once('close', listener);
  }
}

/**
 * The body, read from the socket once: refused past `limit` as soon as it says or grows so
 * (`PayloadTooLarge`; the rest is left unread for the answer to close on), `InvalidInput` when it
 * breaks off or is not as long as it said.
 */
function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = req.headers['content-length'];
  const length = declared === undefined ? null : Number(declared);
  if (length !== null && length > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    readings.set(req, { limit, length, size: 0, chunks: [], resolve, reject });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onBroken);
    req.on('close', onClose);
  });
}

/**
 * A body being read. Its listeners are module functions reading their state here, not closures
 * made per request: every transport request reads a body.
 */
interface Reading {
  readonly limit: number;
  readonly length: number | null;
  size: number;
  readonly chunks: Buffer[];
  readonly resolve: (body: Uint8Array<ArrayBuffer>) => void;
  readonly reject: (error: Error) => void;
}

const readings = new WeakMap<IncomingMessage, Reading>();

function onData(this: IncomingMessage, chunk: Buffer): void {
  const reading = readings.get(this);
  if (!reading) return;
  reading.size += chunk.length;
  if (reading.size > reading.limit) return fail(this, tooLarge(reading.limit));
  reading.chunks.push(chunk);
}

function onEnd(this: IncomingMessage): void {
  const reading = done(this);
  if (!reading) return;
  const { chunks, size, length } = reading;
  if (length !== null && size !== length) return reading.reject(new InvalidInput('The request body could not be read'));
  const whole = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
  reading.resolve(new Uint8Array(whole.buffer as ArrayBuffer, whole.byteOffset, whole.byteLength));
}

function onBroken(this: IncomingMessage): void {
  fail(this, new InvalidInput('The request body could not be read'));
}

function onClose(this: IncomingMessage): void {
  if (!this.complete) fail(this, new InvalidInput('The request body could not be read'));
}

/** Stops reading: the rest of a refused body stays unread (paused) for the answer to close on. */
function fail(req: IncomingMessage, error: Error): void {
  const reading = done(req);
  if (!reading) return;
  req.pause();
  reading.reject(error);
}

function done(req: IncomingMessage): Reading | undefined {
  const reading = readings.get(req);
  readings.delete(req);
  req.off('data', onData);
  req.off('end', onEnd);
  req.off('error', onBroken);
  req.off('close', onClose);
  return reading;
}

function tooLarge(limit: number): PayloadTooLarge {
  return new PayloadTooLarge(`The body is larger than ${limit} bytes`, { limit });
}

/**
 * Writes a Web `Response` on Node's response: its status and headers; a complete body whole (with
 * its length), an event stream as it is written, its head sent at once so the client sees the
 * stream open. When the client goes away the stream is destroyed, which cancels the `Response`
 * body. A refusal sent while the request body is still arriving closes the connection cleanly.
 */
export async function writeWebResponse(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  const type = response.headers.get('content-type');
  const nullBody = NULL_BODY_STATUS.has(response.status);
  if (response.body !== null && !nullBody && type !== null && /^text\/event-stream\b/i.test(type)) {
    res.statusCode = response.status;
    for (const [name, value] of response.headers) res.setHeader(name, value);
    req.socket.setNoDelay(true);
    res.flushHeaders();
    pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), res).catch(() => undefined);
    return;
  }
  const body = nullBody ? (await response.body?.cancel(), null) : Buffer.from(await response.arrayBuffer());
  // The head in one list for writeHead (each `set-cookie` its own line): headers set on `res`
  // before are kept unless the answer names them, as setHeader would, without a map built per answer.
  const head: string[] = [];
  for (const [name, value] of response.headers) if (!(body && name === 'content-length')) head.push(name, value);
  // An empty answer (a 202) says so, where Koa would have written a status text.
  if (body) head.push('content-length', String(body.length));
  if (response.status >= 400 && !req.complete) {
    head.push('connection', 'close');
    lingerOnClose(req, res);
  }
  res.writeHead(response.status, head);
  res.end(body);
}
