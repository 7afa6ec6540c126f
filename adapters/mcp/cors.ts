import type { Context } from 'koa';

/**
 * Cross-origin access for the door's machine endpoints (metadata, token, register, revoke, the
 * transport), so browser-based MCP clients can reach them. None of them reads a cookie: every one
 * authenticates by what the request itself carries, so any origin may call.
 * Never used on the consent page, which does read the host's session.
 */
export function allowAnyOrigin(ctx: Context, expose: ReadonlyArray<string> = []): void {
  ctx.set('Access-Control-Allow-Origin', '*');
  if (expose.length > 0) ctx.set('Access-Control-Expose-Headers', expose.join(', '));
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
