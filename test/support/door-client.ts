import { expect } from 'chai';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import * as v2 from '@modelcontextprotocol/client';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { pkcePair } from './door-harness.js';

export const CLIENT_REDIRECT = 'http://127.0.0.1:7777/oauth/callback';

export interface BrowserAnswer {
  readonly status: number;
  readonly location: URL | null;
  readonly page: string;
}

/**
 * What a person's browser does with an authorization URL: open it signed in with the development
 * host's demo cookie, read the consent page, and press Allow (or Deny). Returns where the browser
 * was sent back to.
 */
export async function consentInBrowser(
  authorizationUrl: URL | string,
  person: string | null,
  decision: 'allow' | 'deny' = 'allow',
): Promise<BrowserAnswer> {
  const url = new URL(authorizationUrl);
  const cookie = person ? `porter_demo_user=${person}` : '';
  const page = await fetch(url, { redirect: 'manual', headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) } });
  const html = await page.text();
  if (page.status !== 200)
    return { status: page.status, location: page.headers.get('location') ? new URL(page.headers.get('location')!, url) : null, page: html };
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1];
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!handle || !action) throw new Error(`no consent form on the page:\n${html.slice(0, 500)}`);
  const answer = await fetch(action.replace(/&amp;/g, '&'), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url.origin, 'sec-fetch-site': 'same-origin', cookie },
    body: new URLSearchParams({ handle, decision }).toString(),
  });
  const location = answer.headers.get('location');
  return { status: answer.status, location: location ? new URL(location) : null, page: await answer.text() };
}

/**
 * The MCP SDK's `OAuthClientProvider` as a simple client would implement it, with the browser leg
 * done by `consentInBrowser` for `person`. Keeps every token set it was given.
 */
export class BrowserlessProvider implements OAuthClientProvider {
  private client: OAuthClientInformationMixed | undefined;
  private verifier = '';
  readonly tokenHistory: OAuthTokens[] = [];
  authorizationUrl: URL | null = null;
  code: string | null = null;
  returnedState: string | null = null;
  returnedIssuer: string | null = null;

  constructor(private readonly person: string) {}

  get redirectUrl(): string {
    return CLIENT_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'SDK e2e client',
      redirect_uris: [CLIENT_REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    return 'sdk-state-1';
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.client;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.client = info;
  }

  tokens(): OAuthTokens | undefined {
    return this.tokenHistory[this.tokenHistory.length - 1];
  }

  saveTokens(tokens: OAuthTokens): void {
    this.tokenHistory.push(tokens);
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    this.authorizationUrl = url;
    const answer = await consentInBrowser(url, this.person);
    const params = answer.location?.searchParams;
    this.code = params?.get('code') ?? null;
    this.returnedState = params?.get('state') ?? null;
    this.returnedIssuer = params?.get('iss') ?? null;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }
}

/**
 * The provider as a v2 client wants it: it also keeps the discovery state across the redirect, so
 * the client can check that the code comes back from the authorization server it discovered.
 */
export class BrowserlessProviderV2 extends BrowserlessProvider {
  private discovered: v2.OAuthDiscoveryState | undefined;

  saveDiscoveryState(state: v2.OAuthDiscoveryState): void {
    this.discovered = state;
  }

  discoveryState(): v2.OAuthDiscoveryState | undefined {
    return this.discovered;
  }
}

/**
 * The same with the MCP SDK's v2 client (`@modelcontextprotocol/client`). It hands the whole
 * callback query to `finishAuth`, which checks `iss` (RFC 9207).
 */
export async function connectSdkV2(
  door: URL,
  person: string,
  options: v2.ClientOptions = {},
  provider: BrowserlessProviderV2 = new BrowserlessProviderV2(person),
) {
  let refused: unknown;
  try {
    await new v2.Client({ name: 'e2e-v2', version: '1.0.0' }, options).connect(
      new v2.StreamableHTTPClientTransport(door, { authProvider: provider }),
    );
  } catch (error) {
    refused = error;
  }
  expect(refused, 'the first connect must need authorization').to.be.instanceOf(v2.UnauthorizedError);
  const callback = new URLSearchParams({ code: provider.code!, iss: provider.returnedIssuer! });
  await new v2.StreamableHTTPClientTransport(door, { authProvider: provider }).finishAuth(callback);
  const transport = new v2.StreamableHTTPClientTransport(door, { authProvider: provider });
  const client = new v2.Client({ name: 'e2e-v2', version: '1.0.0' }, options);
  await client.connect(transport);
  return { client, transport, provider };
}

/**
 * Connects the MCP SDK's own client as `person`: the first connect meets a 401 and runs the OAuth
 * flow. `options` are the client's (its capabilities, say).
 */
export async function connectSdk(door: URL, person: string, provider = new BrowserlessProvider(person), options: ClientOptions = {}) {
  let refused: unknown;
  try {
    await new Client({ name: 'e2e', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(door, { authProvider: provider }));
  } catch (error) {
    refused = error;
  }
  expect(refused, 'the first connect must need authorization').to.be.instanceOf(UnauthorizedError);
  const finishing = new StreamableHTTPClientTransport(door, { authProvider: provider });
  await finishing.finishAuth(provider.code!);
  const transport = new StreamableHTTPClientTransport(door, { authProvider: provider });
  const client = new Client({ name: 'e2e', version: '1.0.0' }, options);
  await client.connect(transport);
  return { client, transport, provider };
}

/** A form-encoded POST, as OAuth clients send to the token and revocation endpoints; redirects are not followed. */
export function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

/** A JSON-RPC `initialize` request, as the first message a raw client sends the door. */
export function initializeRequest(clientName = 'raw') {
  return {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: clientName, version: '1' } },
  };
}

/** One JSON-RPC POST to the door's transport with a bearer (and the session, once there is one). */
export function doorRpc(url: string, token: string, body: unknown, sessionId?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
    },
    body: JSON.stringify(body),
  });
}

/** The door's authorize URL for a public client's code flow with PKCE (S256), redirecting to CLIENT_REDIRECT. */
export function authorizeUrl(door: string, clientId: string, challenge: string): URL {
  const authorize = new URL(`${door}/authorize`);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: CLIENT_REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  return authorize;
}

/** A public client's whole token answer for `person` over raw HTTP: registration, consent, code exchange. */
export async function tokenPairFor(door: URL, person: string): Promise<{ clientId: string; access_token: string; refresh_token: string }> {
  const registered = await fetch(`${door.href}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'raw client', redirect_uris: [CLIENT_REDIRECT], token_endpoint_auth_method: 'none' }),
  });
  const clientId = ((await registered.json()) as { client_id: string }).client_id;
  const tokens = await authorizedTokens(door.href, clientId, person);
  expect(tokens.status).to.equal(200);
  return { clientId, ...((await tokens.json()) as { access_token: string; refresh_token: string }) };
}

/** Registration, consent and code exchange over raw HTTP, as a public client: an access token for `person`. */
export async function accessTokenFor(door: URL, person: string): Promise<string> {
  return (await tokenPairFor(door, person)).access_token;
}

/** `person` consents to `clientId` in the browser and the code is exchanged (PKCE): the token endpoint's answer. */
export async function authorizedTokens(door: string, clientId: string, person: string): Promise<Response> {
  const { verifier, challenge } = pkcePair();
  const code = (await consentInBrowser(authorizeUrl(door, clientId, challenge), person)).location!.searchParams.get('code')!;
  return postForm(`${door}/token`, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: CLIENT_REDIRECT,
    code_verifier: verifier,
    client_id: clientId,
  });
}
