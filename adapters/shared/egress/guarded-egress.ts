import type { Egress, EgressDestination } from '../../../ports/egress.js';
import { EgressGuard, type EgressGuardOptions } from './egress-guard.js';
import { exchange, toResponse, type Hop } from './node-exchange.js';

export interface GuardedEgressOptions extends EgressGuardOptions {
  /** Redirects followed before giving up (each hop is checked again). */
  readonly maxRedirects?: number;
  /** How long `destinationOf` waits for a name to resolve before calling it unresolved. */
  readonly inspectTimeoutMs?: number;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers that carry the caller's credentials or describe a body: not carried to another origin, or past a switch to GET. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];

/**
 * The Egress port over the egress guard: a Web-standard `fetch` whose every hop is resolved once,
 * checked, and connected to the address that was checked.
 */
export class GuardedEgress implements Egress {
  private readonly guard: EgressGuard;
  private readonly maxRedirects: number;
  private readonly inspectTimeoutMs: number;

  constructor(options: GuardedEgressOptions = {}) {
    this.guard = new EgressGuard(options);
    this.maxRedirects = options.maxRedirects ?? 5;
    this.inspectTimeoutMs = options.inspectTimeoutMs ?? 3000;
  }

  fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    // The Request constructor parses and checks the arguments exactly as fetch would.
    const request = new Request(input, init);
    const signal = request.signal;
    // Read once, so a 307 or 308 can send the same body again.
    let body = request.body ? new Uint8Array(await request.arrayBuffer()) : null;
    let url = new URL(request.url);
    let method = request.method;
    const headers = new Headers(request.headers);
    for (let redirects = 0; ; redirects += 1) {
      signal.throwIfAborted();
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new TypeError(`fetch failed: Porter reaches out over http and https only (not ${url.protocol})`);
      const hop: Hop = { url, method, headers, body, signal };
      const answer = await exchange(hop, await this.guard.admit(url.hostname));
      const location = REDIRECT_STATUSES.has(answer.statusCode ?? 0) ? answer.headers.location : undefined;
      if (location === undefined || request.redirect === 'manual') return toResponse(answer, hop, redirects > 0);
      answer.destroy();
      if (request.redirect === 'error') throw new TypeError(`fetch failed: ${url.host} redirected, and redirect is "error"`);
      if (redirects >= this.maxRedirects) throw new TypeError(`fetch failed: more than ${this.maxRedirects} redirects`);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new TypeError(`fetch failed: ${url.host} redirected to an invalid URL`);
      }
      const status = answer.statusCode!;
      if ((status === 303 && method !== 'GET' && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST')) {
        method = 'GET';
        body = null;
        for (const name of BODY_HEADERS) headers.delete(name);
      }
      if (next.origin !== url.origin) for (const name of CREDENTIAL_HEADERS) headers.delete(name);
      url = next;
    }
  };

  async destinationOf(raw: string): Promise<EgressDestination | null> {
    if (!URL.canParse(raw)) return null;
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), this.inspectTimeoutMs)));
    try {
      const destination = await Promise.race([this.guard.inspect(url.hostname), late]);
      if (!destination) return { host: url.hostname, literal: false, addresses: [], refused: null, unresolved: true };
      return {
        host: destination.host,
        literal: destination.literal,
        addresses: destination.addresses.map(({ address, class: kind }) => ({ address, class: kind })),
        refused: destination.refusal?.addressClass ?? null,
        unresolved: false,
      };
    } catch {
      // UnresolvedHost: the name does not resolve (a URL's host always passes canonicalHost).
      return { host: url.hostname, literal: false, addresses: [], refused: null, unresolved: true };
    } finally {
      clearTimeout(timer);
    }
  }
}
