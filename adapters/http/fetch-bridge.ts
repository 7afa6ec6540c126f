import {
  createServer,
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import type { Duplex } from 'node:stream';
import { HOP_BY_HOP_HEADERS, NULL_BODY_STATUS } from '../shared/hop-by-hop.js';
import { envelope } from './error-envelope.js';
import { memoryConnection } from './memory-connection.js';
import type { FetchMount, FetchMountInit } from './wire-mounts.js';

/** Serves one request the way the wire's other mounts do; `host` reaches the principal resolver. */
export type ServeRequest = (req: IncomingMessage, res: ServerResponse, host: unknown) => void;

export interface FetchBridge {
  readonly fetch: FetchMount;
  /** In-memory connections not yet closed (a finished, cancelled or aborted exchange leaves none). */
  openConnections(): number;
}

const CONTENT_LENGTH = /^\d{1,15}$/;

/**
 * The Web-standard mount. Each `Request` is written by Node's own HTTP client over an in-memory
 * connection to a non-listening `http.Server` that hands it to the wire, so the wire gets a real
 * `IncomingMessage`/`ServerResponse` (Koa reads the socket; turns stream chunk by chunk with
 * backpressure). The `Response` resolves once the head arrives. Cancelling its body, or aborting
 * `request.signal`, closes the connection: the wire sees the client go away.
 */
export function fetchBridge(serve: ServeRequest): FetchBridge {
  const hosts = new WeakMap<Duplex, unknown>();
  const started = new WeakSet<Duplex>();
  const open = new Set<Duplex>();
  const server = createServer((req, res) => {
    started.add(req.socket);
    serve(req, res, hosts.get(req.socket));
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => refuseUnparsable(error, socket, started.has(socket)));

  const fetch: FetchMount = (request, init) => {
    if (request.signal.aborted) return Promise.reject(request.signal.reason);
    if (request.bodyUsed) {
      return Promise.reject(
        new TypeError('porter.fetch: the request body was already read. Hand Porter the request before any body parser reads it.'),
      );
    }
    const url = new URL(request.url);
    const connection = memoryConnection({ ip: typeof init?.ip === 'string' ? init.ip : undefined, secure: url.protocol === 'https:' });
    hosts.set(connection.server, hostOf(request, init));
    open.add(connection.server);
    connection.server.once('close', () => open.delete(connection.server));
    server.emit('connection', connection.server);
    return exchange(request, url, connection.client);
  };

  return { fetch, openConnections: () => open.size };
}

function hostOf(request: Request, init: FetchMountInit | undefined): unknown {
  return init?.host !== undefined ? init.host : request;
}

/** Writes the request, streams the body with backpressure, and answers once the response head arrives. */
function exchange(request: Request, url: URL, socket: Duplex): Promise<Response> {
  const declaredLength = request.body ? lengthOf(request.headers.get('content-length')) : null;
  let outgoing: ClientRequest;
  try {
    outgoing = httpRequest({
      createConnection: () => socket,
      method: request.method,
      path: `${url.pathname}${url.search}`,
      headers: outgoingHeaders(request, url, declaredLength),
      setHost: false,
    });
  } catch {
    // A header value or method Node's HTTP cannot write (a control character, say).
    socket.destroy();
    return Promise.resolve(refusal('The request has a method or header that is not valid HTTP'));
  }

  return new Promise<Response>((resolve, reject) => {
    let answered = false;
    let refused: string | null = null;
    const signal = request.signal;
    const close = () => socket.destroy();
    const hangUp: HangUp = {
      // After a whole answer, let the wire's last write complete first, as a kernel buffer would.
      done: () => setImmediate(close),
      cut: close,
    };
    // Until the head arrives an abort rejects; after it, the body stream owns the signal.
    const onAbort = () => {
      answered = true;
      close();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('close', () => {
      signal.removeEventListener('abort', onAbort);
      if (answered) return;
      answered = true;
      if (refused) resolve(refusal(refused));
      else reject(new Error('porter.fetch: the wire closed the connection without answering'));
    });
    outgoing.on('error', () => close());
    outgoing.once('response', (incoming) => {
      answered = true;
      signal.removeEventListener('abort', onAbort);
      try {
        resolve(responseOf(incoming, request.method, signal, hangUp));
      } catch (error) {
        // A head no `Response` can carry (the wire never sends one): fail loudly, hold nothing open.
        close();
        reject(error);
      }
    });
    void sendBody(request.body, outgoing, declaredLength, (reason) => {
      refused ??= reason;
      close();
    });
  });
}

function outgoingHeaders(request: Request, url: URL, declaredLength: number | null): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of request.headers) {
    if (!HOP_BY_HOP_HEADERS.has(name) && name !== 'host' && name !== 'content-length') headers[name] = value;
  }
  // The URL is the request's authority, as it is for `fetch` itself.
  headers.host = url.host;
  // Keep-alive, so a `Connection: close` in the answer is the wire's own (it stopped reading a body).
  headers.connection = 'keep-alive';
  if (declaredLength !== null) headers['content-length'] = String(declaredLength);
  return headers;
}

function lengthOf(header: string | null): number | null {
  const trimmed = header?.trim() ?? '';
  return CONTENT_LENGTH.test(trimmed) ? Number(trimmed) : null;
}

/**
 * Pipes the request body into the connection, one chunk at a time as the connection drains. It
 * stops reading (and cancels the body) as soon as the connection closes: the wire may answer early
 * (413) and never read the rest. A body that fails, or disagrees with its Content-Length, is refused.
 */
async function sendBody(
  body: ReadableStream<Uint8Array> | null,
  outgoing: ClientRequest,
  declaredLength: number | null,
  refuse: (reason: string) => void,
): Promise<void> {
  if (!body) {
    outgoing.end();
    return;
  }
  const reader = body.getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  outgoing.once('close', stop);
  let sent = 0;
  let read = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (outgoing.destroyed) return;
      if (next.done) break;
      if (!(next.value instanceof Uint8Array)) return refuse('The request body is not a byte stream');
      sent += next.value.byteLength;
      if (declaredLength !== null && sent > declaredLength) return refuse('The request body is longer than its Content-Length');
      if (!outgoing.write(next.value)) await drainedOrClosed(outgoing);
    }
    read = true;
    if (declaredLength !== null && sent !== declaredLength) return refuse('The request body is shorter than its Content-Length');
    outgoing.end();
  } catch {
    if (!outgoing.destroyed) refuse('The request body could not be read');
  } finally {
    outgoing.off('close', stop);
    // Whatever ended the exchange early, the body's source is told nobody reads it any more.
    if (!read) stop();
  }
}

function drainedOrClosed(outgoing: ClientRequest): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      outgoing.off('drain', done);
      outgoing.off('close', done);
      resolve();
    };
    outgoing.once('drain', done);
    outgoing.once('close', done);
  });
}

/** How an exchange's connection closes: after a whole answer, or cut short (cancel, abort, a broken stream). */
interface HangUp {
  done(): void;
  cut(): void;
}

/** The wire's answer as a `Response`; its body streams as the wire writes it. */
function responseOf(incoming: IncomingMessage, method: string, signal: AbortSignal, hangUp: HangUp): Response {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    // `Connection: close` is the wire telling the host to drop the connection rather than drain a body it refused.
    if (HOP_BY_HOP_HEADERS.has(name) && !(name === 'connection' && /\bclose\b/i.test(raw[i + 1]!))) continue;
    headers.append(name, raw[i + 1]!);
  }
  const status = incoming.statusCode ?? 500;
  const init = { status, statusText: incoming.statusMessage ?? '', headers };
  if (method === 'HEAD' || NULL_BODY_STATUS.has(status)) {
    incoming.once('close', hangUp.done).resume();
    return new Response(null, init);
  }
  return new Response(bodyOf(incoming, signal, hangUp), init);
}

function bodyOf(incoming: IncomingMessage, signal: AbortSignal, hangUp: HangUp): ReadableStream<Uint8Array> {
  let finished = false;
  let onAbort = () => undefined as void;
  const settle = () => {
    finished = true;
    signal.removeEventListener('abort', onAbort);
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const finish = (error?: unknown) => {
        if (finished) return;
        settle();
        if (error === undefined) {
          controller.close();
          hangUp.done();
        } else {
          controller.error(error);
          hangUp.cut();
        }
      };
      // A microtask later, so a host that cancels the body in the same breath (Hono does, when its
      // client goes) sees a cancelled stream, not an error; a reader sees the abort reason.
      onAbort = () => queueMicrotask(() => finish(signal.reason));
      signal.addEventListener('abort', onAbort, { once: true });
      incoming.on('data', (chunk: Buffer) => {
        if (finished) return;
        controller.enqueue(chunk);
        if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
      });
      incoming.once('end', () => finish());
      incoming.on('error', () => undefined);
      // Closed before its end: the wire's stream broke off, as `fetch` reports a cut connection.
      incoming.once('close', () => finish(new TypeError('terminated')));
    },
    pull() {
      incoming.resume();
    },
    cancel() {
      settle();
      hangUp.cut();
    },
  });
}

/** The wire's validation envelope, for a request that never reached the wire. */
function refusal(message: string): Response {
  return Response.json(envelope('validation', message), { status: 400 });
}

/**
 * What Node's HTTP parser could not read (headers past its size limit): the wire's envelope
 * rather than Node's bare status line. Mid-request there is no clean way to answer; close.
 */
function refuseUnparsable(error: NodeJS.ErrnoException, socket: Duplex, started: boolean): void {
  if (started || !socket.writable) {
    socket.destroy();
    return;
  }
  const message = error.code === 'HPE_HEADER_OVERFLOW' ? 'The request headers are too large' : 'The request is not valid HTTP';
  const body = JSON.stringify(envelope('validation', message));
  socket.end(
    `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
