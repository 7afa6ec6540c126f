import type { Context } from 'koa';

/**
 * Cross-origin access for the door's machine endpoints (metadata, token, register, revoke, the
 * transport), so browser-based MCP clients can reach them. None of them reads a cookie: every one
 * authenticates by what the request itself carries, so any origin may call.
 * Never used on the consent page, which does read the host's session.
 */
export function allowAnyOrigin(ctx: Context, expose: ReadonlyArray<string> = []): void {
  // Straight onto Node's response: the transport sets these on every request.
  ctx.res.setHeader('Access-Control-Allow-Origin', '*');
  if (expose.length > 0) ctx.res.setHeader('Access-Control-Expose-Headers', expose.join(', '));
}

export function preflight(methods: ReadonlyArray<string>, headers: ReadonlyArray<string>) {
  return (ctx: Context): void => {
    allowAnyOrigin(ctx);
    ctx.set('Access-Control-Allow-Methods', [...methods, 'OPTIONS'].join(', '));
    ctx.set('Access-Control-Allow-Headers', headers.join(', '));
    ctx.set('Access-Control-Max-Age', '600');
    ctx.status = 204;
  };
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
