import { createHash, randomBytes } from 'node:crypto';
import type { FetchMount } from '../../adapters/http/wire-mounts.js';

/** What `doorToken` reaches Porter through: the instance (`createPorter(…)`), or its `fetch` and `mount`. */
export interface DoorTokenTarget {
  readonly fetch: FetchMount;
  readonly mount: string;
}

export interface DoorTokenOptions {
  /**
   * Request headers that sign the person in on the consent page, as your `oauth.signIn` resolver
   * reads them: your session cookie (`{ cookie: 'session=…' }`) or header. The token is theirs.
   */
  readonly signIn: Record<string, string>;
  /** The origin Porter is reached at, when no `baseUrl` fixes it (default `http://localhost`): tokens are bound to `{origin}{wire}/mcp`. */
  readonly origin?: string;
  /** The registered client's name, shown on the consent page (default `porter-runtime/testing`). */
  readonly clientName?: string;
}

/** A token grant of the door, and the client and resource it belongs to. */
export interface DoorToken {
  /** Send as `Authorization: Bearer …` to the door (`{wire}/mcp`). */
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly expiresIn: number;
  readonly scope: string;
  /** The public client registered for this grant. */
  readonly clientId: string;
  /** The door's URL, the token's audience (`{origin}{wire}/mcp`). */
  readonly door: string;
}

/** A redirect URI a native client may register: loopback, never fetched (the code is read from the redirect). */
const REDIRECT_URI = 'http://127.0.0.1/porter-testing/callback';

interface ServerMetadata {
  readonly issuer: string;
  readonly authorization_endpoint: string;
  readonly token_endpoint: string;
  readonly registration_endpoint: string;
}

/**
 * An MCP door access token for a person, obtained the way an MCP client obtains one, through the
 * door's public OAuth endpoints only (via `porter.fetch`, no port): discovery, dynamic client
 * registration, the authorization request with PKCE (S256) signed in by `signIn`, the person's
 * Allow on the consent page, and the code exchange. Nothing is minted around the authorization
 * server, so the test exercises your `oauth.signIn` and `oauth.principal` too. Fails, naming the
 * step, when a step is refused (e.g. `signIn` is not recognised, or the door is not open).
 */
export async function doorToken(porter: DoorTokenTarget, options: DoorTokenOptions): Promise<DoorToken> {
  const origin = new URL(options.origin ?? 'http://localhost').origin;
  const wire = porter.mount === '/' ? '' : porter.mount;
  const send = (url: string, init: RequestInit = {}) => porter.fetch(new Request(url, { redirect: 'manual', ...init }));

  const discovered = await send(`${origin}${wire}/mcp/.well-known/oauth-authorization-server`);
  const server = (await answer(
    discovered,
    'the authorization server metadata (is the door open: `mcp: true` with `oauth`?)',
  )) as ServerMetadata;

  const registered = (await answer(
    await send(server.registration_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: options.clientName ?? 'porter-runtime/testing',
        redirect_uris: [REDIRECT_URI],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
    }),
    'the client registration',
  )) as { client_id: string };

  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const authorize = new URL(server.authorization_endpoint);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: registered.client_id,
    redirect_uri: REDIRECT_URI,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state,
  }).toString();
  const page = await send(authorize.href, { headers: { ...options.signIn, accept: 'text/html' } });
  if (page.status !== 200) {
    await page.body?.cancel();
    throw new Error(
      `doorToken: the consent page answered ${page.status}${page.headers.get('location') ? ` (to ${page.headers.get('location')})` : ''}: does oauth.signIn recognise the signIn headers?`,
    );
  }
  const handle = consentHandle(await page.text());

  const consented = await send(server.authorization_endpoint, {
    method: 'POST',
    headers: {
      ...options.signIn,
      'content-type': 'application/x-www-form-urlencoded',
      origin: new URL(server.issuer).origin,
      'sec-fetch-site': 'same-origin',
    },
    body: new URLSearchParams({ handle, decision: 'allow' }).toString(),
  });
  await consented.body?.cancel();
  const back = new URL(consented.headers.get('location') ?? 'about:blank', server.issuer);
  const code = back.searchParams.get('code');
  if (!code || back.searchParams.get('state') !== state)
    throw new Error(
      `doorToken: the consent answered ${consented.status} without a code (${back.searchParams.get('error') ?? 'no redirect'})`,
    );

  const tokens = (await answer(
    await send(server.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        code_verifier: verifier,
        client_id: registered.client_id,
      }).toString(),
    }),
    'the code exchange',
  )) as { access_token: string; refresh_token: string; expires_in: number; scope: string };
  return {
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    expiresIn: tokens.expires_in,
    scope: tokens.scope,
    clientId: registered.client_id,
    door: `${origin}${wire}/mcp`,
  };
}

/** A JSON answer, or an error naming the step and what the door said. */
async function answer(response: Response, step: string): Promise<unknown> {
  const text = await response.text();
  if (!response.ok) throw new Error(`doorToken: ${step} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}

/** The consent form's `handle` field (Porter's page, or a host's `consentPage` that posts the same fields). */
function consentHandle(html: string): string {
  const input = /<input\b[^>]*\bname="handle"[^>]*>/i.exec(html)?.[0];
  const value = input && /\bvalue="([^"]*)"/i.exec(input)?.[1];
  if (!value) throw new Error('doorToken: the consent page has no `handle` field');
  return value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');
}
