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
 * whose `Origin` is present and not allowed is refused with 403, against DNS rebinding). Always
 * allowed: the door's own origin (the configured base URL's, else the request's) and loopback
 * origins, so local inspectors keep working; besides, the configured list, or any with `'*'`.
 */
export class AllowedOrigins {
  private readonly listed: ReadonlySet<string> | '*';

  constructor(configured: ReadonlyArray<string> | '*' = []) {
    this.listed = configured === '*' ? '*' : new Set(configured.map(normalOrigin));
  }

  allows(origin: string, own: string): boolean {
    if (this.listed === '*') return true;
    const normal = normalOrigin(origin);
    return normal === normalOrigin(own) || LOOPBACK.test(normal) || this.listed.has(normal);
  }
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
