import { createHash, randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startDevHost, type DevHost } from '../../composition/dev-host/dev-host.js';
import { developmentOAuth } from '../../composition/dev-host/dev-oauth.js';
import type { PorterOptions } from '../../composition/config/config-schema.js';

const REDIRECT = 'http://127.0.0.1:7777/callback';

/** One `tools/call` of the read tool `notes_list`, failing on an error result. */
export const call = (client: Client) => async () => {
  const result = await client.callTool({ name: 'notes_list', arguments: {} });
  if (result.isError) throw new Error(`notes_list failed: ${JSON.stringify(result.content)}`);
};

/**
 * The development host as `npm start` runs it, on a SQLite file, with the access-token cache as
 * given and the breakers off unless `breakers` says otherwise.
 */
export function doorHost(
  tokenCacheMs: number | undefined,
  databaseUrl: string,
  breakers: PorterOptions['breakers'] = false,
): Promise<DevHost> {
  return startDevHost({
    port: 0,
    env: {
      NODE_ENV: 'development',
      PORTER_DATABASE_URL: databaseUrl,
      PORTER_SECRET: 'a-benchmark-secret-that-is-long-enough-0123456789',
      PORTER_WEBHOOK_DEMO_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
    },
    // Thousands of calls as one person: the tool-call breaker would refuse them past 60 a minute.
    porter: {
      logger: 'silent',
      breakers,
      oauth: { ...developmentOAuth(), ...(tokenCacheMs === undefined ? {} : { tokenCacheMs }) },
    },
  });
}

/** The OAuth flow over HTTP as a client does it: register, consent (as the demo user), code + PKCE → token. */
export async function accessToken(door: URL, person: string): Promise<string> {
  const registered = (await (
    await fetch(`${door.href}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'bench', redirect_uris: [REDIRECT] }),
    })
  ).json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL(`${door.href}/authorize`);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: registered.client_id,
    redirect_uri: REDIRECT,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const cookie = `porter_demo_user=${person}`;
  const page = await (await fetch(authorize, { headers: { cookie } })).text();
  const handle = /name="handle" value="([^"]+)"/.exec(page)?.[1];
  if (!handle) throw new Error('no consent form');
  const answer = await fetch(`${door.href}/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: door.origin },
    body: new URLSearchParams({ handle, decision: 'allow' }).toString(),
  });
  const code = new URL(answer.headers.get('location')!).searchParams.get('code')!;
  const tokens = (await (
    await fetch(`${door.href}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        client_id: registered.client_id,
      }).toString(),
    })
  ).json()) as { access_token: string };
  return tokens.access_token;
}

/**
 * The SDK client hands every request its transport's long-lived abort signal, and Node's fetch
 * keeps one listener on it per request until the request is collected: thousands of calls pile
 * up listeners and warnings. The bench never aborts, so both clients fetch without the signal.
 */
export const unsignalledFetch = (url: string | URL, init?: RequestInit) => {
  const { signal: _signal, ...rest } = init ?? {};
  return fetch(url, rest);
};
