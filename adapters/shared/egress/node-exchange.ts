import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pipeline, Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { AdmittedDestination } from './egress-guard.js';
import { defined } from '../../../domain/defined.js';

/** One request of a guarded fetch, as it goes on the wire. */
export interface Hop {
  readonly url: URL;
  readonly method: string;
  readonly headers: Headers;
  readonly body: Uint8Array | null;
  readonly signal: AbortSignal;
}

/**
 * Sends one request to exactly the destination the guard admitted: the lookup it is given answers
 * with the checked addresses, and TLS still verifies the certificate against the URL's name (SNI
 * included). Each request has its own connection, so no pooled socket dialled for another answer
 * is reused.
 */
export function exchange(hop: Hop, destination: AdmittedDestination): Promise<IncomingMessage> {
  const { url } = hop;
  const headers: Record<string, string> = {};
  for (const [name, value] of hop.headers) headers[name] = value;
  headers.host = url.host;
  headers.accept ??= '*/*';
  headers['accept-encoding'] ??= 'gzip, deflate, br';
  headers['user-agent'] ??= 'porter-runtime';
  if (hop.body) headers['content-length'] = String(hop.body.byteLength);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = send({
      host: destination.host,
      port: url.port || (url.protocol === 'https:' ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method: hop.method,
      headers,
      lookup: destination.lookup,
      agent: false,
      signal: hop.signal,
      ...defined({ servername: url.protocol === 'https:' && !destination.literal ? destination.host : undefined }),
    });
    outgoing.once('response', resolve);
    outgoing.once('error', (error) => {
      if (hop.signal.aborted) reject(hop.signal.reason);
      else reject(new TypeError(`fetch failed: could not reach ${url.host}`, { cause: error }));
    });
    outgoing.end(hop.body ?? undefined);
  });
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** A node response as the Web `Response` fetch would give: headers as sent, the body decoded. */
export function toResponse(answer: IncomingMessage, hop: Hop, redirected: boolean): Response {
  const status = answer.statusCode ?? 0;
  if (status < 200 || status > 599) {
    answer.destroy();
    throw new TypeError(`fetch failed: ${hop.url.host} answered with status ${status}`);
  }
  const headers = new Headers();
  for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2) {
    try {
      headers.append(answer.rawHeaders[i]!, answer.rawHeaders[i + 1]!);
    } catch {
      // A header the Web Headers class cannot hold is dropped, as fetch drops it.
    }
  }
  const hasBody = hop.method !== 'HEAD' && !NULL_BODY_STATUSES.has(status);
  if (!hasBody) answer.resume();
  const body = hasBody ? (Readable.toWeb(decoded(answer)) as ReadableStream<Uint8Array>) : null;
  const response = new Response(body, { status, statusText: answer.statusMessage ?? '', headers });
  Object.defineProperties(response, { url: { value: hop.url.href }, redirected: { value: redirected } });
  return response;
}

/** The body with its content codings undone, last applied first, as fetch does; an unknown coding is left as it is. */
function decoded(answer: IncomingMessage): Readable {
  const codings = (answer.headers['content-encoding'] ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity')
    .reverse();
  const decoders = [];
  for (const coding of codings) {
    if (coding === 'gzip' || coding === 'x-gzip') decoders.push(createGunzip());
    else if (coding === 'deflate') decoders.push(createInflate());
    else if (coding === 'br') decoders.push(createBrotliDecompress());
    else return answer;
  }
  if (decoders.length === 0) return answer;
  return pipeline([answer, ...decoders], () => undefined) as unknown as Readable;
}
