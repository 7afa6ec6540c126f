import type { Context } from 'koa';
import { isIdOf } from '../../../domain/ids.js';

const COOKIE = 'porter_anon';
const MAX_AGE_MS = 180 * 24 * 60 * 60 * 1000;

/** `__Host-porter_anon` over https (pinned to this host and path /), `porter_anon` otherwise. */
function cookieName(ctx: Context): string {
  return ctx.secure ? `__Host-${COOKIE}` : COOKIE;
}

function options(ctx: Context) {
  return { signed: true, httpOnly: true, sameSite: 'lax' as const, secure: ctx.secure, path: '/', overwrite: true };
}

/** The anonymous session id from a correctly signed cookie, or null. */
export function readAnonymousSession(ctx: Context): string | null {
  const value = ctx.cookies.get(cookieName(ctx), { signed: true });
  return value && isIdOf('anonymous', value) ? value : null;
}

export function issueAnonymousSession(ctx: Context, sessionId: string): void {
  ctx.cookies.set(cookieName(ctx), sessionId, { ...options(ctx), maxAge: MAX_AGE_MS });
}

/** Expires the cookie (and its signature) once the session has been adopted. */
export function retireAnonymousSession(ctx: Context): void {
  ctx.cookies.set(cookieName(ctx), null, { ...options(ctx), maxAge: 0, expires: new Date(0) });
}
