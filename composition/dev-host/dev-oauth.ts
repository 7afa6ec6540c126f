import type { Middleware } from 'koa';
import getRawBody from 'raw-body';
import type { PorterOptions } from '../config/porter-options.js';
import type { Principal } from '../../domain/principal.js';

/** Where the development host lets a person pick a demo name before the consent page. */
export const DEV_SIGN_IN_PATH = '/dev/sign-in';
const DEMO_COOKIE = 'porter_demo_user';
const NAME = /^[A-Za-z0-9._@-]{1,64}$/;

/**
 * The development host's OAuth adapter for the MCP door. The consent page knows the person from the
 * same demo cookie as the wire (`porter_demo_user`) through the door's own `signIn`, never through
 * the host's `principal(req)` (door paths sit outside it); without the cookie the page sends them to
 * a small sign-in form here. Every demo name is a person, so `principal(subject)` answers for any
 * well-formed name.
 */
export function developmentOAuth(): NonNullable<PorterOptions['oauth']> {
  const person = (subject: string): Principal | null => (NAME.test(subject) ? { subject, kind: 'user', name: subject } : null);
  return {
    principal: person,
    signIn: (request) => person((request.cookie(DEMO_COOKIE) ?? '').trim()),
    brand: { name: 'Porter development host' },
    signInUrl: (returnTo) => `${DEV_SIGN_IN_PATH}?returnTo=${encodeURIComponent(returnTo)}`,
  };
}

/**
 * `GET|POST /dev/sign-in`: a name field that sets the demo cookie, then returns to the consent
 * page. Deliberately naive, like the demo resolver: it exists to show the door's sign-in seam.
 */
export function developmentSignIn(): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== DEV_SIGN_IN_PATH) return next();
    const returnTo = sameOriginPath(String(ctx.query.returnTo ?? '/'), `${ctx.protocol}://${ctx.host}`);
    if (ctx.method === 'GET') {
      ctx.type = 'html';
      ctx.set('Cache-Control', 'no-store');
      ctx.body = signInPage(returnTo);
      return;
    }
    if (ctx.method !== 'POST') return next();
    const form = new URLSearchParams(await getRawBody(ctx.req, { limit: 4096, encoding: 'utf-8' }));
    const name = (form.get('name') ?? '').trim();
    if (!NAME.test(name)) {
      ctx.status = 400;
      ctx.type = 'html';
      ctx.body = signInPage(returnTo, 'Use 1 to 64 letters, digits, dots, dashes, underscores or @.');
      return;
    }
    ctx.cookies.set(DEMO_COOKIE, name, { httpOnly: true, sameSite: 'lax', signed: false, overwrite: true });
    ctx.status = 303;
    ctx.redirect(returnTo);
  };
}

/** Only paths on this host: the sign-in form is not an open redirect. */
function sameOriginPath(returnTo: string, here: string): string {
  try {
    const url = new URL(returnTo, here);
    return url.origin === new URL(here).origin ? `${url.pathname}${url.search}` : '/';
  } catch {
    return '/';
  }
}

function signInPage(returnTo: string, problem?: string): string {
  const escape = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in · Porter development host</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font:16px system-ui,sans-serif;max-width:30rem;margin:3rem auto;padding:0 1rem">
<h1>Sign in to the development host</h1>
<p>Pick any name; it becomes your demo user (the <code>${DEMO_COOKIE}</code> cookie).</p>
${problem ? `<p role="alert">${escape(problem)}</p>` : ''}
<form method="post" action="${DEV_SIGN_IN_PATH}?returnTo=${escape(encodeURIComponent(returnTo))}">
<label>Name <input name="name" autocomplete="username" required pattern="[A-Za-z0-9._@-]{1,64}"></label>
<button type="submit">Sign in</button></form></body></html>`;
}
