import type { WebHandler } from '../shared/web-handler.js';

/**
 * Cross-origin access for the door's machine endpoints (metadata, token, register, revoke, the
 * transport), so browser-based MCP clients can reach them. None of them reads a cookie: every one
 * authenticates by what the request itself carries, so any origin may call.
 * Never used on the consent page, which does read the host's session.
 */
export const ANY_ORIGIN: Readonly<Record<string, string>> = { 'access-control-allow-origin': '*' };

/** `handler`, its every answer (its failures too) open to any origin (see ANY_ORIGIN). */
export function allowingAnyOrigin(handler: WebHandler): WebHandler {
  return async (request, exchange) => {
    const response = await handler(request, exchange);
    response.headers.set('access-control-allow-origin', '*');
    return response;
  };
}

/** The CORS preflight of a path taking `methods`, with the request `headers` a browser may send. */
export function preflight(methods: ReadonlyArray<string>, headers: ReadonlyArray<string>): WebHandler {
  const allowed = {
    ...ANY_ORIGIN,
    'access-control-allow-methods': [...methods, 'OPTIONS'].join(', '),
    'access-control-allow-headers': headers.join(', '),
    'access-control-max-age': '600',
  };
  return () => new Response(null, { status: 204, headers: allowed });
}

/** `http(s)://localhost`, `127.0.0.1` or `[::1]`, any port: MCP inspectors and clients on the person's own machine. */
const LOOPBACK = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i;

/**
 * Which browser origins may use the door's transport (the MCP transport specification: a request
 * whose `Origin` is present and not allowed is refused with 403, against DNS rebinding). Allowed:
 * the configured base URL's origin, the configured list (or any with `'*'`), and loopback origins
 * on a request that came to a loopback address, so local inspectors keep working. The request's
 * own Host never counts: a rebinding page sends its own name as both Host and Origin.
 */
export class AllowedOrigins {
  private readonly listed: ReadonlySet<string> | '*';
  private readonly own: string | null;

  /** `own`: the configured base URL's origin (`PORTER_BASE_URL`), or null when there is none. */
  constructor(configured: ReadonlyArray<string> | '*' = [], own: string | null = null) {
    this.listed = configured === '*' ? '*' : new Set(configured.map(normalOrigin));
    this.own = own === null ? null : normalOrigin(own);
  }

  /** `onLoopback`: the request arrived on a loopback address of this machine (its socket says so). */
  allows(origin: string, onLoopback: boolean): boolean {
    if (this.listed === '*') return true;
    const normal = normalOrigin(origin);
    return normal === this.own || this.listed.has(normal) || (onLoopback && LOOPBACK.test(normal));
  }
}

/**
 * Whether a connection came to a loopback address (127.0.0.0/8 or ::1, IPv4 ones also as
 * IPv6-mapped). A connection without a local address (the fetch mount's, in memory) did not.
 */
export function arrivedOnLoopback(socket: { readonly localAddress?: string | undefined }): boolean {
  const address = socket.localAddress;
  return address !== undefined && (address === '::1' || /^(::ffff:)?127\./i.test(address));
}

/** An origin as browsers serialize it (lower-case scheme and host, no default port, no trailing slash); the text itself when it is no URL. */
function normalOrigin(origin: string): string {
  try {
    const url = new URL(origin);
    return url.origin === 'null' ? origin : url.origin;
  } catch {
    return origin;
  }
}
