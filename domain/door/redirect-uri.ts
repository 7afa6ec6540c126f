import { caseless, URL_PARTS } from '../http-url.js';

/**
 * Which redirect URIs a door client may register, and when a presented one matches.
 * - `https:` anywhere;
 * - `http:` only on a loopback address (RFC 8252 §7.3, native apps on the same machine);
 * - a private-use scheme (RFC 8252 §7.1, e.g. `cursor://…`), except schemes a browser would run
 *   or read locally.
 * Fragments are never allowed (RFC 6749 §3.1.2).
 */
const REFUSED = ['javascript', 'data', 'vbscript', 'file', 'blob', 'about', 'filesystem', 'ws', 'wss'];
const REFUSED_SCHEMES = new Set(REFUSED.map((scheme) => `${scheme}:`));
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

export const MAX_REDIRECT_URI_LENGTH = 2000;

const { HOST, PORT } = URL_PARTS;
/** What a host of a URL with another scheme may hold: anything but the characters the URL parser refuses there. */
const OPAQUE_HOST = "[A-Za-z0-9._~!$&'()*+,;=%-]*";

/**
 * The rules below as one pattern (the OpenAPI document's, and the registration's first check):
 * `https:` with a host, `http:` on a loopback host, or another scheme that is not refused; no
 * credentials, no fragment, no whitespace. What it takes, the URL parser takes.
 */
export const REDIRECT_URI = new RegExp(
  `^(?:${caseless('https')}://${HOST}${PORT}(?:[/?][^\\s#]*)?` +
    `|${caseless('http')}://(?:127\\.0\\.0\\.1|\\[::1\\]|${caseless('localhost')})${PORT}(?:[/?][^\\s#]*)?` +
    `|(?!(?:${[...REFUSED, 'https', 'http'].map(caseless).join('|')}):)[A-Za-z][A-Za-z0-9+.-]*:(?://${OPAQUE_HOST}(?::[0-9]{0,4})?(?:[/?][^\\s#]*)?|(?!//)[^\\s#]*))$`,
);

/** Why the URI cannot be registered, or null when it can. */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return `is longer than ${MAX_REDIRECT_URI_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URI';
  }
  if (uri.includes('#')) return 'must not contain a fragment';
  if (REFUSED_SCHEMES.has(url.protocol)) return `uses the ${url.protocol} scheme, which is not allowed`;
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) return 'uses http: on a host that is not loopback; use https:';
  if (url.username || url.password) return 'must not carry credentials';
  return null;
}

/**
 * Exact match, except that a loopback http URI matches on any port (RFC 8252 §7.3: native apps pick
 * an ephemeral port at request time).
 */
export function redirectUriMatches(registered: string, presented: string): boolean {
  if (registered === presented) return true;
  let a: URL;
  let b: URL;
  try {
    a = new URL(registered);
    b = new URL(presented);
  } catch {
    return false;
  }
  if (a.protocol !== 'http:' || b.protocol !== 'http:' || !LOOPBACK_HOSTS.has(a.hostname)) return false;
  return a.hostname === b.hostname && a.pathname === b.pathname && a.search === b.search && !b.hash && !b.username && !b.password;
}
