import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The Connect protocol (connectrpc.com/docs/protocol) as e2b's envd speaks it to the SDK, JSON
 * codec only (the SDK sets `useBinaryFormat: false`): unary calls are plain `application/json`
 * POSTs; server-streaming calls send and receive `application/connect+json` envelopes — a flags
 * byte, a 4-byte big-endian length, the JSON message — ending with an end-stream envelope (flag 2).
 */

export type ConnectCode = 'invalid_argument' | 'not_found' | 'unauthenticated' | 'internal' | 'unimplemented' | 'unavailable';

const HTTP_STATUS: Record<ConnectCode, number> = {
  invalid_argument: 400,
  unauthenticated: 401,
  not_found: 404,
  unimplemented: 404,
  internal: 500,
  unavailable: 503,
};

export class ConnectError extends Error {
  constructor(
    readonly code: ConnectCode,
    message: string,
  ) {
    super(message);
  }
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A unary call: JSON in, JSON out; errors as `{code, message}` with the code's HTTP status. */
export async function unary(
  request: IncomingMessage,
  response: ServerResponse,
  handle: (message: unknown) => Promise<unknown>,
): Promise<void> {
  try {
    if (!String(request.headers['content-type']).startsWith('application/json'))
      throw new ConnectError('invalid_argument', 'this server speaks the JSON codec only');
    const body = await bodyOf(request);
    const answer = await handle(body.length ? JSON.parse(body.toString('utf8')) : {});
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer ?? {}));
  } catch (error) {
    const failure = error instanceof ConnectError ? error : new ConnectError('internal', String(error));
    response.writeHead(HTTP_STATUS[failure.code], { 'content-type': 'application/json' });
    response.end(JSON.stringify({ code: failure.code, message: failure.message }));
  }
}

export interface ServerStream {
  send(message: unknown): void;
  /** Ends the stream, with an error when given. */
  end(error?: ConnectError): void;
  /** Resolves when the client goes away (a background command handle disconnects, or the process ends). */
  readonly closed: Promise<void>;
}

function envelope(flags: number, message: unknown): Buffer {
  const json = Buffer.from(JSON.stringify(message), 'utf8');
  const head = Buffer.alloc(5);
  head.writeUInt8(flags, 0);
  head.writeUInt32BE(json.length, 1);
  return Buffer.concat([head, json]);
}

/** A server-streaming call: one enveloped request message, then envelopes until `end`. */
export async function serverStream(
  request: IncomingMessage,
  response: ServerResponse,
  handle: (message: unknown, stream: ServerStream) => Promise<void>,
): Promise<void> {
  const body = await bodyOf(request);
  const closed = new Promise<void>((resolve) => response.once('close', () => resolve()));
  let ended = false;
  response.writeHead(200, { 'content-type': 'application/connect+json' });
  const stream: ServerStream = {
    send(message) {
      if (!ended) response.write(envelope(0, message));
    },
    end(error) {
      if (ended) return;
      ended = true;
      response.end(envelope(2, error ? { error: { code: error.code, message: error.message } } : {}));
    },
    closed,
  };
  try {
    if (!String(request.headers['content-type']).startsWith('application/connect+json'))
      throw new ConnectError('invalid_argument', 'streaming calls take application/connect+json');
    if (body.length < 5) throw new ConnectError('invalid_argument', 'missing request envelope');
    const length = body.readUInt32BE(1);
    await handle(JSON.parse(body.subarray(5, 5 + length).toString('utf8')), stream);
  } catch (error) {
    stream.end(error instanceof ConnectError ? error : new ConnectError('internal', String(error)));
  }
}
