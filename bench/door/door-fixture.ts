import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { DevHost, startDevHost as StartDevHost } from '../../composition/dev-host/dev-host.js';
import type { developmentOAuth as DevelopmentOAuth } from '../../composition/dev-host/dev-oauth.js';
import type { PorterOptions } from '../../composition/config/config-schema.js';
import { doorToken } from '../../composition/testing/door-token.js';
import { builtModule, ensureBuilt } from '../support/built-porter.js';

/** One `tools/call` of the read tool `notes_list`, failing on an error result. */
export const call = (client: Client) => async () => {
  const result = await client.callTool({ name: 'notes_list', arguments: {} });
  if (result.isError) throw new Error(`notes_list failed: ${JSON.stringify(result.content)}`);
};

/**
 * The development host as `npm start` runs it, on a SQLite file, with the access-token cache as
 * given and the breakers off unless `breakers` says otherwise. Loaded from the built package
 * (`dist/`, built first when stale), as a host runs Porter; the bare servers it is compared with
 * run the SDK's built JavaScript too.
 */
export async function doorHost(
  tokenCacheMs: number | undefined,
  databaseUrl: string,
  breakers: PorterOptions['breakers'] = false,
): Promise<DevHost> {
  ensureBuilt();
  const { startDevHost } = await builtModule<{ startDevHost: typeof StartDevHost }>('composition/dev-host/dev-host.js');
  const { developmentOAuth } = await builtModule<{ developmentOAuth: typeof DevelopmentOAuth }>('composition/dev-host/dev-oauth.js');
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

/**
 * The OAuth flow over HTTP as a client does it (register, consent as the demo user, code + PKCE →
 * token): `porter-runtime/testing`'s doorToken, its requests sent to the running host.
 */
export async function accessToken(door: URL, person: string): Promise<string> {
  const mount = door.pathname.replace(/\/mcp$/, '');
  const overHttp = { mount, fetch: (request: Request) => fetch(request) };
  return (await doorToken(overHttp, { signIn: { cookie: `porter_demo_user=${person}` }, origin: door.origin })).accessToken;
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
