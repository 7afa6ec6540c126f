import Negotiator from 'negotiator';

/**
 * Answers as Web `Response`s, in the forms Koa gives them (media types with their charset,
 * redirects with a short body), so a client sees the same bytes whichever glue serves a handler.
 */

/** Token responses and refusals are never cached (RFC 6749 §5.1). */
export const NO_STORE: Readonly<Record<string, string>> = { 'cache-control': 'no-store', pragma: 'no-cache' };

/** A text answer (`text/plain`; an empty one too, as an empty 200 of revocation). */
export function textResponse(status: number, text: string, headers: Readonly<Record<string, string>> = {}): Response {
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } });
}

/** Whether the request prefers `text/html` to `application/json` (no `Accept`: JSON). */
export function prefersHtml(request: Request): boolean {
  const accept = request.headers.get('accept');
  if (accept === null) return false;
  return new Negotiator({ headers: { accept } }).mediaTypes(['application/json', 'text/html'])[0] === 'text/html';
}

/** Whether the request takes `text/html` at all (no `Accept`: it does). */
function acceptsHtml(request: Request): boolean {
  const accept = request.headers.get('accept');
  return accept === null || new Negotiator({ headers: { accept } }).mediaTypes(['text/html']).length > 0;
}

/**
 * A redirect to `location`: `Location` encoded as a URL (an absolute http(s) one normalised first),
 * and a one-line body saying where, HTML-escaped for a client that takes HTML.
 */
export function redirectResponse(
  request: Request,
  location: string,
  status: number,
  headers: Readonly<Record<string, string>> = {},
): Response {
  const url = /^https?:\/\//i.test(location) ? new URL(location).toString() : location;
  const html = acceptsHtml(request);
  return new Response(`Redirecting to ${html ? escapeHtmlText(url) : url}.`, {
    status,
    headers: {
      ...headers,
      location: encodeUrl(url),
      'content-type': html ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8',
    },
  });
}

const ENCODE_CHARS = /(?:[^\x21\x23-\x3B\x3D\x3F-\x5F\x61-\x7A\x7C\x7E]+|%+(?![0-9A-Fa-f]{2})){1,1024}/g;
const SURROGATES = /([\uD800-\uDBFF][\uDC00-\uDFFF])|[\uD800-\uDFFF]/g;

/** Percent-encodes what may not stand in a URL, leaving sequences already encoded as they are. */
function encodeUrl(url: string): string {
  return url.replace(SURROGATES, (_, pair: string | undefined) => pair ?? '\uFFFD').replace(ENCODE_CHARS, encodeURI);
}

function escapeHtmlText(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
