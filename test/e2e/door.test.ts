import { expect } from 'chai';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as oauth from 'oauth4webapi';
import { devHost } from '../support/dev-host-fixture.js';
import { CLIENT_REDIRECT, connectSdk, consentInBrowser, authorizeUrl, initializeRequest, doorRpc } from '../support/door-client.js';
import { pkcePair } from '../support/door-harness.js';
import { ManualClock } from '../support/manual-clock.js';
import { developmentOAuth } from '../../composition/dev-host/dev-oauth.js';
import { MemoryStore } from '../../adapters/store/memory/memory-store.js';
import { PKCE_REQUIRED } from '../../domain/door/pkce.js';
import type { DevHost } from '../../composition/dev-host/dev-host.js';
import type { WireClient } from '../support/turn-client.js';
import { ORIGIN_ROOT_DOCUMENTS } from '../support/door-documents.js';

type Host = DevHost & { client: WireClient };
const insecure = { [oauth.allowInsecureRequests]: true };

function textOf(result: unknown): string {
  return ((result as CallToolResult).content[0] as { text: string }).text;
}

/** Registers a public client over HTTP and returns its id. */
async function registerClient(host: Host): Promise<string> {
  const response = await fetch(`${host.url}/api/porter/mcp/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'raw client', redirect_uris: [CLIENT_REDIRECT], token_endpoint_auth_method: 'none' }),
  });
  expect(response.status).to.equal(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

/** Registration, consent and code exchange over raw HTTP: a token pair for `person`. */
async function tokensFor(host: Host, person: string, clientId?: string) {
  const client = clientId ?? (await registerClient(host));
  const { verifier, challenge } = pkcePair();
  const authorize = authorizeUrl(`${host.url}/api/porter/mcp`, client, challenge);
  const response = await exchangeCode(host, await consentInBrowser(authorize, person), verifier, client);
  expect(response.status).to.equal(200);
  return { clientId: client, ...((await response.json()) as { access_token: string; refresh_token: string }) };
}

/** Exchanges the code a consent answer redirected with, and its PKCE verifier, at the token endpoint. */
function exchangeCode(host: Host, consented: { location: URL | null }, verifier: string, clientId: string): Promise<Response> {
  return form(`${host.url}/api/porter/mcp/token`, {
    grant_type: 'authorization_code',
    code: consented.location!.searchParams.get('code')!,
    redirect_uri: CLIENT_REDIRECT,
    code_verifier: verifier,
    client_id: clientId,
  });
}

function form(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

/** `initialize` without a session; `tools/list` in one. */
function initialize(url: string, token: string, sessionId?: string) {
  return doorRpc(url, token, sessionId ? { jsonrpc: '2.0', id: 2, method: 'tools/list' } : initializeRequest(), sessionId);
}

describe('The MCP door through the development host', function () {
  this.timeout(60_000);
  let host: Host;
  let door: URL;
  const gone = new Set<string>();

  before(async () => {
    const dev = developmentOAuth();
    host = await devHost({ porter: { oauth: { ...dev, principal: (subject) => (gone.has(subject) ? null : dev.principal(subject)) } } });
    door = new URL(`${host.url}/api/porter/mcp`);
  });

  after(async () => {
    await host.close();
  });

  it('reports the local door on /status', async () => {
    const status = await host.client.as('ada').json('GET', '/status');
    expect(status.body.blocks.mcp).to.equal('local');
  });

  it('lets the MCP SDK client do the whole flow: discovery, registration, PKCE, token, tools/list, tools/call, refresh', async () => {
    const { client, provider } = await connectSdk(door, 'ada');
    const asked = provider.authorizationUrl!;
    expect(asked.searchParams.get('code_challenge_method')).to.equal('S256');
    expect(asked.searchParams.get('resource')).to.equal(door.href);
    expect(provider.returnedState).to.equal('sdk-state-1');
    expect(provider.returnedIssuer, 'the issuer is the origin').to.equal(host.url);
    expect(provider.clientInformation()!.client_id).to.match(/^mcpc_/);

    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    expect(byName.notes_list).to.deep.include({ readOnlyHint: true, destructiveHint: false });
    expect(byName.notes_clear).to.deep.include({ readOnlyHint: false, destructiveHint: true });
    expect(byName.web_fetch).to.deep.include({ openWorldHint: true });

    const listed = await client.callTool({ name: 'notes_list', arguments: {} });
    expect(listed.isError ?? false).to.equal(false);
    expect(JSON.parse(textOf(listed))).to.deep.equal({ notes: [] });

    // Refresh: drop the access token the client holds; its next call meets a 401 and refreshes.
    const first = provider.tokens()!;
    const revoked = await form(`${door.href}/revoke`, {
      token: first.access_token,
      token_type_hint: 'access_token',
      client_id: provider.clientInformation()!.client_id,
    });
    expect(revoked.status).to.equal(200);
    expect(await revoked.text()).to.equal('');
    const again = await client.callTool({ name: 'notes_list', arguments: {} });
    expect(again.isError ?? false).to.equal(false);
    expect(provider.tokenHistory).to.have.length(2);
    expect(provider.tokens()!.refresh_token).to.not.equal(first.refresh_token);
    await client.close();
  });

  it('lists each tool with the JSON Schema of its zod input, and answers bad arguments with a tool error the agent reads', async () => {
    const { client } = await connectSdk(door, 'hal');
    const { tools } = await client.listTools();
    const schemaOf = (name: string) => tools.find((t) => t.name === name)!.inputSchema;
    expect(schemaOf('notes_add')).to.deep.include({
      type: 'object',
      properties: { text: { type: 'string', minLength: 1, maxLength: 2000 } },
      required: ['text'],
      additionalProperties: false,
    });
    const put = schemaOf('porter_apps_data_put') as {
      properties: Record<string, { anyOf?: Array<{ type: string }>; pattern?: string }>;
      required: string[];
    };
    expect(put.properties.appId!.pattern).to.equal('^app_[0-9A-Za-z_-]{10,64}$');
    expect(put.properties.data!.anyOf!.map((each) => each.type)).to.deep.equal(['string', 'number', 'boolean', 'null', 'array', 'object']);
    expect(put.required).to.deep.equal(['appId', 'collection', 'data']);

    for (const [args, issue] of [
      [{ text: 5 }, '/text Invalid input: expected string, received number'],
      [{}, '/text Invalid input: expected string'],
      [{ text: 'x', pinned: true }, '(input) Unrecognized key: "pinned"'],
    ] as const) {
      const refused = await client.callTool({ name: 'notes_add', arguments: args });
      expect(refused.isError, JSON.stringify(args)).to.equal(true);
      expect(textOf(refused)).to.contain('Invalid arguments: ').and.to.contain(issue);
    }
    expect((await host.client.as('hal').json('GET', '/approvals')).body.approvals, 'nothing parked for an invalid call').to.deep.equal([]);
    const fine = await client.callTool({ name: 'notes_list', arguments: {} });
    expect(fine.isError ?? false).to.equal(false);
    await client.close();
  });

  it('parks a destructive call, reuses its id on the identical retry, runs it once after a one-off approval, then asks again', async () => {
    const { client } = await connectSdk(door, 'grace');
    const ada = host.client.as('grace');
    await client.callTool({ name: 'notes_add', arguments: { text: 'from the door' } });
    const first = await client.callTool({ name: 'notes_clear', arguments: {} });
    expect(first.isError).to.equal(true);
    const parked = first.structuredContent as { status: string; approvalId: string; risk: string };
    expect(parked).to.deep.include({ status: 'approval-required', risk: 'destructive' });
    expect(textOf(first)).to.contain(parked.approvalId);
    const second = await client.callTool({ name: 'notes_clear', arguments: {} });
    expect((second.structuredContent as { approvalId: string }).approvalId).to.equal(parked.approvalId);

    const pending = await ada.json('GET', `/approvals/${parked.approvalId}`);
    expect(pending.body.request).to.deep.include({ tool: 'notes_clear', venue: 'mcp' });
    expect((await ada.json('POST', `/approvals/${parked.approvalId}/decide`, { approve: true })).status).to.equal(200);

    const ran = await client.callTool({ name: 'notes_clear', arguments: {} });
    expect(ran.isError ?? false).to.equal(false);
    expect(JSON.parse(textOf(ran))).to.deep.equal({ removed: 0 });
    const third = await client.callTool({ name: 'notes_clear', arguments: {} });
    expect((third.structuredContent as { approvalId: string }).approvalId).to.not.equal(parked.approvalId);
    expect((await ada.json('GET', '/grants')).body.grants).to.have.length(0);
    await client.close();
  });

  it("answers the transport's 401 with WWW-Authenticate pointing at the RFC 9728 document, whatever cookie comes along", async () => {
    const response = await fetch(door, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        cookie: 'porter_demo_user=ada',
        'x-demo-user': 'ada',
      },
      body: '{}',
    });
    expect(response.status).to.equal(401);
    const header = response.headers.get('www-authenticate')!;
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(header)![1]!;
    expect(metadataUrl).to.equal(`${host.url}/.well-known/oauth-protected-resource/api/porter/mcp`);
    const metadata = (await (await fetch(metadataUrl)).json()) as { resource: string; scopes_supported: string[] };
    expect(metadata.resource).to.equal(door.href);
    const bad = await fetch(door, {
      method: 'POST',
      headers: { authorization: 'Bearer not-a-token', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(bad.headers.get('www-authenticate')).to.contain('error="invalid_token"');
    // Both challenges name the scope the door needs (MCP authorization, scope selection), as its metadata does.
    for (const answer of [response, bad]) {
      const params = Object.fromEntries([...answer.headers.get('www-authenticate')!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
      expect(params).to.deep.include({ resource_metadata: metadataUrl, scope: 'mcp' });
      expect(params.scope!.split(' ')).to.deep.equal(metadata.scopes_supported);
    }
    // As oauth4webapi reads the challenge.
    const challenge = await oauth
      .protectedResourceRequest('not-a-token', 'POST', door, new Headers({ 'content-type': 'application/json' }), '{}', insecure)
      .then(
        () => null,
        (error: unknown) => (error as oauth.WWWAuthenticateChallengeError).cause[0],
      );
    expect(challenge).to.deep.include({ scheme: 'bearer' });
    expect(challenge!.parameters).to.deep.include({ error: 'invalid_token', resource_metadata: metadataUrl, scope: 'mcp' });
  });

  it("passes oauth4webapi's checks of the metadata and of every flow", async () => {
    const resource = await oauth.processResourceDiscoveryResponse(door, await oauth.resourceDiscoveryRequest(door, insecure));
    expect(resource.authorization_servers).to.deep.equal([host.url]);
    const issuer = new URL(resource.authorization_servers![0]!);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    expect(as.code_challenge_methods_supported).to.deep.equal(['S256']);

    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        { redirect_uris: [CLIENT_REDIRECT], token_endpoint_auth_method: 'client_secret_basic', client_name: 'oauth4webapi' },
        insecure,
      ),
    );
    const client: oauth.Client = { client_id: registered.client_id };
    const auth = oauth.ClientSecretBasic(registered.client_secret as string);

    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorize = new URL(as.authorization_endpoint!);
    authorize.search = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: CLIENT_REDIRECT,
      response_type: 'code',
      scope: 'mcp',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      resource: door.href,
    }).toString();
    const answer = await consentInBrowser(authorize, 'heidi');
    const callback = oauth.validateAuthResponse(as, client, answer.location!, state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, auth, callback, CLIENT_REDIRECT, verifier, insecure),
    );
    expect(tokens.token_type).to.equal('bearer');
    expect(tokens.refresh_token).to.be.a('string');

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure),
    );
    expect(refreshed.access_token).to.not.equal(tokens.access_token);
    expect((await initialize(door.href, refreshed.access_token)).status).to.equal(200);

    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth, refreshed.refresh_token!, insecure));
    expect((await initialize(door.href, refreshed.access_token)).status, 'revoking the refresh token revoked its family').to.equal(401);
  });

  it('serves the six origin-root documents at their exact paths only, and the two OAuth documents under the base path', async () => {
    const exact = ORIGIN_ROOT_DOCUMENTS;
    for (const path of exact) {
      const response = await fetch(`${host.url}${path}`);
      expect(response.status, path).to.equal(200);
      expect(response.headers.get('content-type'), path).to.contain('application/json');
    }
    for (const path of [
      '/.well-known/oauth-protected-resource/api/porter/mcp/x',
      '/.well-known/oauth-protected-resource/',
      '/.well-known/mcp/server-card.json.bak',
      '/.well-known/oauth-authorization-server/other',
      '/.well-known/mcp',
    ]) {
      expect((await fetch(`${host.url}${path}`)).status, path).to.equal(404);
    }
    const prm = await (await fetch(`${host.url}/.well-known/oauth-protected-resource/api/porter/mcp`)).json();
    expect(await (await fetch(`${door.href}/.well-known/oauth-protected-resource`)).json()).to.deep.equal(prm);
    const asm = (await (await fetch(`${door.href}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(asm).to.deep.include({ issuer: host.url, code_challenge_methods_supported: ['S256'], token_endpoint: `${door.href}/token` });
    const card = (await (await fetch(`${host.url}/.well-known/mcp/server-card.json`)).json()) as { remotes: unknown[] };
    expect(card.remotes).to.deep.equal([{ type: 'streamable-http', url: door.href }]);
  });

  describe('/authorize over HTTP', () => {
    let clientId: string;
    before(async () => {
      clientId = await registerClient(host);
    });

    const authorizeUrl = (fields: Record<string, string> | Array<[string, string]>) => {
      const url = new URL(`${door.href}/authorize`);
      const base = { response_type: 'code', client_id: clientId, redirect_uri: CLIENT_REDIRECT, state: 'st' };
      // A record replaces the base fields; pairs are appended as they are (to repeat a parameter).
      url.search = new URLSearchParams(Array.isArray(fields) ? [...Object.entries(base), ...fields] : { ...base, ...fields }).toString();
      return url;
    };

    const challenge = 'a'.repeat(43);
    for (const [what, fields] of [
      ['no code_challenge', { code_challenge_method: 'S256' }],
      ['a malformed code_challenge', { code_challenge: 'short', code_challenge_method: 'S256' }],
      ['an over-long code_challenge', { code_challenge: 'a'.repeat(300), code_challenge_method: 'S256' }],
      [
        'a code_challenge given twice',
        [
          ['code_challenge', challenge],
          ['code_challenge', challenge],
          ['code_challenge_method', 'S256'],
        ],
      ],
      [
        'a code_challenge_method given twice',
        [
          ['code_challenge', challenge],
          ['code_challenge_method', 'S256'],
          ['code_challenge_method', 'S256'],
        ],
      ],
      ['code_challenge_method=plain', { code_challenge: challenge, code_challenge_method: 'plain' }],
      ['an over-long code_challenge_method', { code_challenge: challenge, code_challenge_method: 'S256'.repeat(20) }],
      ['no code_challenge_method', { code_challenge: challenge }],
    ] as Array<[string, Record<string, string> | Array<[string, string]>]>) {
      it(`redirects back with invalid_request for ${what}`, async () => {
        const response = await fetch(authorizeUrl(fields), { redirect: 'manual', headers: { cookie: 'porter_demo_user=ada' } });
        expect(response.status).to.equal(302);
        const location = new URL(response.headers.get('location')!);
        expect(`${location.origin}${location.pathname}`).to.equal(CLIENT_REDIRECT);
        expect(location.searchParams.get('error')).to.equal('invalid_request');
        expect(location.searchParams.get('error_description')).to.equal(PKCE_REQUIRED);
        expect(location.searchParams.get('state')).to.equal('st');
      });
    }

    it('sends a person who is not signed in to sign in, and back to the consent page afterwards', async () => {
      const url = authorizeUrl({ code_challenge: pkcePair().challenge, code_challenge_method: 'S256' });
      const first = await fetch(url, { redirect: 'manual' });
      expect(first.status).to.equal(302);
      const signIn = new URL(first.headers.get('location')!, host.url);
      expect(signIn.pathname).to.equal('/dev/sign-in');
      const signedIn = await form(signIn.href, { name: 'ivan' });
      expect(signedIn.status).to.equal(303);
      const cookie = signedIn.headers
        .getSetCookie()
        .find((c) => c.startsWith('porter_demo_user='))!
        .split(';')[0]!;
      const back = new URL(signedIn.headers.get('location')!, host.url);
      expect(`${back.pathname}${back.search}`).to.equal(`${url.pathname}${url.search}`);
      const consent = await fetch(back, { headers: { cookie } });
      expect(consent.status).to.equal(200);
      expect(await consent.text()).to.contain('Signed in as <strong>ivan');
    });

    it('serves the consent page unframeable, and refuses a consent answer posted from another site', async () => {
      const page = await fetch(authorizeUrl({ code_challenge: pkcePair().challenge, code_challenge_method: 'S256' }), {
        headers: { cookie: 'porter_demo_user=ada' },
      });
      expect(page.headers.get('x-frame-options')).to.equal('DENY');
      expect(page.headers.get('content-security-policy')).to.contain("frame-ancestors 'none'");
      const handle = /name="handle" value="([^"]+)"/.exec(await page.text())![1]!;
      const forged = await form(
        `${door.href}/authorize`,
        { handle, decision: 'allow' },
        { cookie: 'porter_demo_user=ada', origin: 'https://evil.example' },
      );
      expect(forged.status).to.equal(403);
      expect(forged.headers.get('location')).to.equal(null);
    });

    it('refuses, without redirecting, a redirect URI the client did not register', async () => {
      const response = await fetch(
        authorizeUrl({ redirect_uri: 'https://attacker.example/cb', code_challenge: pkcePair().challenge, code_challenge_method: 'S256' }),
        { redirect: 'manual' },
      );
      expect(response.status).to.equal(400);
      expect(await response.json()).to.deep.include({ error: 'invalid_request' });
    });
  });

  describe('/token and /revoke over HTTP', () => {
    it('answers 200 with an empty body when a revocation lands, also for a token that no longer exists', async () => {
      const { clientId, refresh_token } = await tokensFor(host, 'judy');
      for (let i = 0; i < 2; i++) {
        const response = await form(`${door.href}/revoke`, { token: refresh_token, client_id: clientId });
        expect(response.status).to.equal(200);
        expect(await response.text()).to.equal('');
      }
    });

    it('answers 400 with error and error_description for each refused revocation', async () => {
      const { clientId, access_token } = await tokensFor(host, 'kim');
      const other = await registerClient(host);
      const cases: Array<[string, Promise<Response>]> = [
        [
          'a JSON body',
          fetch(`${door.href}/revoke`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ token: access_token, client_id: clientId }),
          }),
        ],
        ['no token', form(`${door.href}/revoke`, { client_id: clientId })],
        ['no client_id', form(`${door.href}/revoke`, { token: access_token })],
        ['an unknown client_id', form(`${door.href}/revoke`, { token: access_token, client_id: 'mcpc_00000000000000' })],
        ["another client's token", form(`${door.href}/revoke`, { token: access_token, client_id: other })],
      ];
      for (const [what, pending] of cases) {
        const response = await pending;
        expect(response.status, what).to.equal(400);
        const body = (await response.json()) as Record<string, unknown>;
        expect(Object.keys(body).sort(), what).to.deep.equal(['error', 'error_description']);
      }
      expect((await initialize(door.href, access_token)).status, 'nothing was revoked').to.equal(200);
    });

    it('rotates refresh tokens; reusing a rotated one revokes the family', async () => {
      const { clientId, refresh_token } = await tokensFor(host, 'leo');
      const rotate = (token: string) =>
        form(`${door.href}/token`, { grant_type: 'refresh_token', refresh_token: token, client_id: clientId });
      const second = (await (await rotate(refresh_token)).json()) as { refresh_token: string; access_token: string };
      const third = (await (await rotate(second.refresh_token)).json()) as { refresh_token: string; access_token: string };
      const replay = await rotate(refresh_token);
      expect(replay.status).to.equal(400);
      expect(await replay.json()).to.deep.include({ error: 'invalid_grant' });
      expect((await initialize(door.href, third.access_token)).status).to.equal(401);
      expect((await rotate(third.refresh_token)).status).to.equal(400);
    });

    it('answers a rotated refresh token that comes back right after its rotation (the grace window), revoking nothing', async () => {
      const { clientId, refresh_token } = await tokensFor(host, 'lena');
      const rotate = (token: string) =>
        form(`${door.href}/token`, { grant_type: 'refresh_token', refresh_token: token, client_id: clientId });
      const rotated = await rotate(refresh_token);
      expect(rotated.status).to.equal(200);
      const next = (await rotated.json()) as { refresh_token: string; access_token: string };
      const again = await rotate(refresh_token);
      expect(again.status).to.equal(200);
      expect((await initialize(door.href, next.access_token)).status, "the rotation's access token still works").to.equal(200);
      expect((await rotate(next.refresh_token)).status, 'the family goes on').to.equal(200);
    });

    it('answers both of two racing refreshes, rotating once', async () => {
      const { clientId, refresh_token } = await tokensFor(host, 'mia');
      const results = await Promise.all(
        [0, 1].map(() => form(`${door.href}/token`, { grant_type: 'refresh_token', refresh_token, client_id: clientId })),
      );
      expect(results.map((r) => r.status)).to.deep.equal([200, 200]);
      for (const result of results) {
        const { access_token } = (await result.json()) as { access_token: string };
        expect((await initialize(door.href, access_token)).status).to.equal(200);
      }
    });

    it("answers a wrong method on the door's endpoints in OAuth's or JSON-RPC's shape, never the wire envelope", async () => {
      for (const path of ['token', 'revoke', 'register']) {
        const response = await fetch(`${door.href}/${path}`);
        expect(response.status, path).to.equal(405);
        expect(response.headers.get('allow'), path).to.contain('POST');
        expect(Object.keys((await response.json()) as object).sort(), path).to.deep.equal(['error', 'error_description']);
      }
      const transport = await fetch(door, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(transport.status).to.equal(405);
      expect(await transport.json()).to.deep.include({ jsonrpc: '2.0', id: null });
    });

    it("wants form-encoded token requests and refuses others in OAuth's shape", async () => {
      const response = await fetch(`${door.href}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"grant_type":"refresh_token"}',
      });
      expect(response.status).to.equal(400);
      expect(await response.json()).to.deep.include({ error: 'invalid_request' });
      expect(response.headers.get('cache-control')).to.equal('no-store');
    });
  });

  describe('sessions', () => {
    it("closes a subject's live sessions when oauth.principal(subject) answers null", async () => {
      const { access_token } = await tokensFor(host, 'nina');
      const opened = await initialize(door.href, access_token);
      const sessionId = opened.headers.get('mcp-session-id')!;
      expect(sessionId).to.match(/^ses_/);
      expect((await initialize(door.href, access_token, sessionId)).status).to.equal(200);
      gone.add('nina');
      try {
        const refused = await initialize(door.href, access_token, sessionId);
        expect(refused.status).to.equal(401);
        expect(refused.headers.get('www-authenticate')).to.contain('error="invalid_token"');
      } finally {
        gone.delete('nina');
      }
      const after = await initialize(door.href, access_token, sessionId);
      expect(after.status, 'the session was closed, not just refused once').to.equal(404);
    });

    it("treats a session id presented with another person's token as unknown", async () => {
      const owner = await tokensFor(host, 'oscar');
      const intruder = await tokensFor(host, 'pia');
      const sessionId = (await initialize(door.href, owner.access_token)).headers.get('mcp-session-id')!;
      expect((await initialize(door.href, intruder.access_token, sessionId)).status).to.equal(404);
      expect((await initialize(door.href, owner.access_token, sessionId)).status).to.equal(200);
    });
  });

  it('serves /connect: how to add the door to Claude, ChatGPT and Cursor', async () => {
    const response = await fetch(`${door.href}/connect`);
    expect(response.status).to.equal(200);
    const html = await response.text();
    expect(html).to.contain(door.href);
    for (const client of ['Claude', 'ChatGPT', 'Cursor']) expect(html).to.contain(`<h2>${client}</h2>`);
  });
});

describe('The door on a store without atomic claims', function () {
  this.timeout(30_000);

  it("answers /revoke with 400 and OAuth's fields, revoking nothing", async () => {
    const host = await devHost({ porter: { store: new MemoryStore({ clock: new ManualClock(), atomic: false }) } });
    try {
      const clientId = await registerClient(host);
      const response = await form(`${host.url}/api/porter/mcp/revoke`, { token: 'whatever', client_id: clientId });
      expect(response.status).to.equal(400);
      expect(Object.keys((await response.json()) as object).sort()).to.deep.equal(['error', 'error_description']);
    } finally {
      await host.close();
    }
  });
});

describe("The door's pages in the host's brand", function () {
  this.timeout(30_000);
  let host: Host;

  before(async () => {
    host = await devHost({
      porter: {
        oauth: {
          ...developmentOAuth(),
          brand: { name: 'Acme Notes', accentColor: '#ff6600' },
          consentPage: (model) =>
            `<!doctype html><title>Acme</title><h1>Let ${model.client.name} into ${model.brand.name}?</h1>` +
            `<form method="post" action="${model.action}"><input type="hidden" name="handle" value="${model.handle}">` +
            '<button name="decision" value="allow">Yes</button></form>',
        },
      },
    });
  });

  after(async () => {
    await host.close();
  });

  it("renders the host's own consent page, and its answer still completes the flow", async () => {
    const clientId = await registerClient(host);
    const { verifier, challenge } = pkcePair();
    const authorize = authorizeUrl(`${host.url}/api/porter/mcp`, clientId, challenge);
    const page = await (await fetch(authorize, { headers: { cookie: 'porter_demo_user=quinn' } })).text();
    expect(page).to.contain('<h1>Let raw client into Acme Notes?</h1>');
    const token = await exchangeCode(host, await consentInBrowser(authorize, 'quinn'), verifier, clientId);
    expect(token.status).to.equal(200);
  });

  it('dresses /connect in the brand', async () => {
    const html = await (await fetch(`${host.url}/api/porter/mcp/connect`)).text();
    expect(html).to.contain('Use Acme Notes from your AI agent');
    expect(html).to.contain('--accent:#ff6600');
  });

  it('lets browser-based MCP clients reach the transport and the token endpoint (CORS), never the consent page', async () => {
    const preflight = await fetch(`${host.url}/api/porter/mcp`, {
      method: 'OPTIONS',
      headers: { origin: 'https://inspector.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).to.equal(204);
    expect(preflight.headers.get('access-control-allow-origin')).to.equal('*');
    expect(preflight.headers.get('access-control-allow-headers')).to.contain('Mcp-Session-Id');
    const refused = await fetch(`${host.url}/api/porter/mcp`, {
      method: 'POST',
      headers: { origin: 'https://inspector.example' },
      body: '{}',
    });
    expect(refused.headers.get('access-control-expose-headers')).to.contain('WWW-Authenticate');
    const page = await fetch(`${host.url}/api/porter/mcp/authorize`, { headers: { origin: 'https://inspector.example' } });
    expect(page.headers.get('access-control-allow-origin')).to.equal(null);
  });
});
