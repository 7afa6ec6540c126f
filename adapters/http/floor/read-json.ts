import type { IncomingMessage } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createUnzip } from 'node:zlib';
import getRawBody from 'raw-body';
import { InvalidInput, PayloadTooLarge, UnsupportedMediaType } from '../../../domain/errors.js';
import { assertJsonDepth } from '../../../domain/json-depth.js';
import { defined } from '../../../domain/defined.js';

/** A body must be a JSON object or array (RFC 8259 whitespace may lead). */
const OBJECT_OR_ARRAY = /^[ \t\n\r]*[[{]/;

/**
 * Reads a JSON request body: decoded from its Content-Encoding (gzip, deflate, br), read by
 * raw-body with a limit on the decoded bytes (so a compressed bomb stops at the limit), refused
 * past `JSON_DEPTH_LIMIT` levels of nesting before anything recursive sees it, and parsed
 * strictly. Keys that would reach an object's prototype (`__proto__`, `constructor.prototype`)
 * are refused, since a later merge could follow them.
 */
export async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  const length = req.headers['content-length'];
  const source = decoded(req, encoding);
  let text: string;
  try {
    text = await getRawBody(source, {
      limit,
      encoding: 'utf-8',
      // The declared length is only the decoded length when nothing was compressed.
      ...defined({ length: encoding === 'identity' ? length : undefined }),
    });
  } catch (error) {
    // The request is left whole (not destroyed) so the wire can answer and close the connection cleanly.
    if (source !== req) {
      req.unpipe();
      source.destroy();
    }
    throw bodyError(error, limit);
  }
  if (text.length === 0) return {};
  if (!OBJECT_OR_ARRAY.test(text)) throw new InvalidInput('The JSON body must be an object or an array');
  assertJsonDepth(text);
  try {
    return JSON.parse(text, refusePrototypeKeys);
  } catch (error) {
    if (error instanceof InvalidInput) throw error;
    throw new InvalidInput('The body is not valid JSON');
  }
}

function decoded(req: IncomingMessage, encoding: string): Readable {
  switch (encoding) {
    case 'identity':
      return req;
    case 'gzip':
    case 'deflate':
      return through(req, createUnzip());
    case 'br':
      return through(req, createBrotliDecompress());
    default:
      throw new UnsupportedMediaType(`Unsupported Content-Encoding: ${encoding}`);
  }
}

/**
 * The request piped into its decoder. A request that aborts mid-body fails the decoder too, so
 * nothing waits forever; a decoder that fails leaves the request alone (a pipeline would destroy
 * it, and with it the connection the answer has to go out on).
 */
function through(req: IncomingMessage, decoder: Transform): Readable {
  req.once('close', () => {
    if (!req.complete) decoder.destroy(new Error('The request was aborted'));
  });
  return req.pipe(decoder);
}

function refusePrototypeKeys(this: unknown, key: string, value: unknown): unknown {
  if (key === '__proto__' || (key === 'constructor' && typeof value === 'object' && value !== null && 'prototype' in value)) {
    throw new InvalidInput('The JSON body carries a forbidden key (__proto__ or constructor.prototype)');
  }
  return value;
}

/** raw-body's and zlib's failures as the wire's errors. */
function bodyError(error: unknown, limit: number): Error {
  const type = (error as { type?: unknown } | null)?.type;
  if (type === 'entity.too.large') return new PayloadTooLarge(`The body is larger than ${limit} bytes`, { limit });
  if (type === 'request.size.invalid') return new InvalidInput('The body is shorter or longer than its Content-Length');
  if (type === 'encoding.unsupported') return new UnsupportedMediaType('The body must be UTF-8');
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^(Z_|ERR_ZLIB|ERR__ERROR_)/.test(code)) {
    return new InvalidInput('The request body could not be decoded for its Content-Encoding');
  }
  return error instanceof Error ? error : new Error(String(error));
}
