import { InvalidInput } from '../../domain/errors.js';
import { assertJsonDepth } from '../../domain/json-depth.js';
import type { WebExchange } from '../shared/web-handler.js';

/** Marks a body that is not JSON: the SDK reads it itself and answers its parse error. */
export const NOT_JSON: unique symbol = Symbol('not JSON');

/** A transport request as the SDK is handed it: the `Request`, and its body parsed once. */
export interface ReadExchange {
  readonly request: Request;
  readonly parsed: unknown;
}

/**
 * The request and, for a POST, its body, read once through the exchange (refused past
 * `maxBodyBytes`: `PayloadTooLarge`) and parsed once (`parsed`, handed to the SDK as its
 * `parsedBody`, so the `Request` carries no body), or `NOT_JSON` (the `Request` then carries the
 * bytes for the SDK to refuse in its words). A body that breaks off, or nests deeper than
 * `JSON_DEPTH_LIMIT` (the SDK parses and validates it recursively, tool arguments included), is
 * `InvalidInput`.
 */
export async function readExchange(request: Request, exchange: WebExchange, maxBodyBytes: number): Promise<ReadExchange> {
  if (request.method !== 'POST') return { request, parsed: undefined };
  const body = await exchange.body(maxBodyBytes);
  assertJsonDepth(body, 'The JSON-RPC body');
  const parsed = parseJson(body);
  if (parsed !== NOT_JSON) return { request, parsed };
  try {
    return { request: new Request(request.url, { method: request.method, headers: request.headers, body }), parsed };
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

/** A JSON answer of Porter's own (an OAuth or JSON-RPC refusal). */
export function jsonResponse(status: number, value: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
}
