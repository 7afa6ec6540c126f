import { parse } from 'node:querystring';
import { InvalidInput } from '../../domain/errors.js';
import { redirectResponse, textResponse } from '../../adapters/shared/web-answers.js';
import type { WebHandler } from '../../adapters/shared/web-handler.js';
import { DEMO_COOKIE, DEMO_NAME, DEV_SIGN_IN_PATH } from './dev-oauth.js';

const FORM_LIMIT = 4096;
const UTF8 = new TextDecoder();

/** The requests the sign-in form answers: its path, read or sent. */
export function takesSignIn(method: string, path: string): boolean {
  return path === DEV_SIGN_IN_PATH && (method === 'GET' || method === 'POST');
}

/**
 * `GET|POST /dev/sign-in`: a name field that sets the demo cookie, then returns to the consent
 * page. Deliberately naive, like the demo resolver: it exists to show the door's sign-in seam.
 */
export const developmentSignIn: WebHandler = async (request, exchange) => {
  const url = new URL(request.url);
  const returnTo = sameOriginPath(String(parse(url.search.slice(1)).returnTo ?? '/'), exchange.origin);
  if (request.method !== 'POST') return page(200, signInPage(returnTo));
  let body: Uint8Array;
  try {
    body = await exchange.body(FORM_LIMIT);
  } catch (error) {
    if (error instanceof InvalidInput) return textResponse(400, 'Bad Request');
    return textResponse(413, 'Payload Too Large');
  }
  const name = (new URLSearchParams(UTF8.decode(body)).get('name') ?? '').trim();
  if (!DEMO_NAME.test(name)) return page(400, signInPage(returnTo, 'Use 1 to 64 letters, digits, dots, dashes, underscores or @.'));
  return redirectResponse(request, returnTo, 303, { 'set-cookie': `${DEMO_COOKIE}=${name}; path=/; samesite=lax; httponly` });
};

function page(status: number, html: string): Response {
  return new Response(html, { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
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
