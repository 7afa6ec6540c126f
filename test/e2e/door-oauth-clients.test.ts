import { request as httpRequest } from 'node:http';
import { expect } from 'chai';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { devHost } from '../support/dev-host-fixture.js';
import { BrowserlessProvider, connectSdk, consentInBrowser } from '../support/door-client.js';
import { pkcePair } from '../support/door-harness.js';
import { CLIENT_SHAPES } from '../support/mcp-client-shapes.js';
import type { DevHost } from '../../composition/dev-host/dev-host.js';
import type { WireClient } from '../support/turn-client.js';
import type { WireRequest } from '../../ports/wire-request.js';
import { demoPrincipal } from '../../composition/dev-host/demo-principal.js';
import { developmentOAuth } from '../../composition/dev-host/dev-oauth.js';
import { containerOf } from '../../composition/porter-container.js';
import { get, TOKENS } from '../../composition/tokens.js';
import { NodeDoorSecrets } from '../../adapters/mcp/node-door-secrets.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createPorter, type Porter } from '../../composition/create-porter.js';
import { demoTools } from '../../composition/dev-host/demo-tools.js';
import { createTestDatabase, postgresServerUrl } from '../support/postgres.js';
import { CLIENT_REDIRECT, authorizeUrl, initializeRequest, doorRpc, postForm as form } from '../support/door-client.js';
import { ORIGIN_ROOT_DOCUMENTS } from '../support/door-documents.js';

type Host = DevHost & { client: WireClient };

/** A GET with whatever Host header the test names (fetch would not send a forged one). */
function getWithHost(url: string, host: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'GET', headers: { host } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

/** Counts the times the client had to send the person to the consent page. */
class CountingProvider extends BrowserlessProvider {
  consents = 0;

  override async redirectToAuthorization(url: URL): Promise<void> {
    this.consents++;
    await super.redirectToAuthorization(url);
  }
}

describe('The door with the clients people use', function () {
  this.timeout(120_000);
  let host: Host;
  let door: URL;

  before(async () => {
    host = await devHost();
    door = new URL(`${host.url}/api/porter/mcp`);
  });

  after(async () => {
    await host.close();
  });

  it('keeps the SDK client signed in when four tool calls in flight meet an expired access token, ten rounds running', async () => {
    // Each instance re-reads every bearer (no token cache), so an expiry written to the store is seen at once.
    const expiring = await devHost({ porter: { oauth: { ...developmentOAuth(), tokenCacheMs: 0 } } });
    try {
      const doorUrl = new URL(`${expiring.url}/api/porter/mcp`);
      const accessTokens = get(containerOf(expiring.porter), TOKENS.Store).records<{ expiresAt: string }>('door-access-tokens');
      const secrets = new NodeDoorSecrets();
      const { client, provider } = await connectSdk(doorUrl, 'ada', new CountingProvider('ada'));
      const counting = provider as CountingProvider;
      expect(counting.consents, 'the first connection asks once').to.equal(1);
      let failed = 0;
      for (let round = 0; round < 10; round++) {
        // The access token expires: every call in flight meets a 401 and refreshes with the same refresh token.
        const digest = secrets.digest(provider.tokens()!.access_token);
        const record = (await accessTokens.get(digest))!;
        await accessTokens.put({ id: digest, data: { ...record.data, expiresAt: new Date(0).toISOString() }, refs: record.refs });
        const before = provider.tokenHistory.length;
        const calls = await Promise.allSettled(Array.from({ length: 4 }, () => client.callTool({ name: 'notes_list', arguments: {} })));
        for (const call of calls) {
          if (call.status === 'rejected' || (call.value as CallToolResult).isError) failed++;
        }
        expect(provider.tokenHistory.length - before, `round ${round}: the calls refreshed`).to.be.greaterThan(0);
      }
      expect({ failed, consents: counting.consents }).to.deep.equal({ failed: 0, consents: 1 });
      await client.close();
    } finally {
      await expiring.close();
    }
  });

  describe('registration and authorization with the bodies real clients send', () => {
    for (const shape of CLIENT_SHAPES) {
      it(`${shape.name}: registers, is shown only what was kept, consents with its own scope and gets mcp`, async () => {
        const response = await fetch(`${door.href}/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(shape.registration),
        });
        const registered = (await response.json()) as Record<string, unknown>;
        expect(response.status, JSON.stringify(registered)).to.equal(201);
        const kept = ['authorization_code', 'refresh_token'];
        expect(registered).to.deep.include({ scope: 'mcp', response_types: ['code'], redirect_uris: shape.registration.redirect_uris });
        expect((registered.grant_types as string[]).every((grant) => kept.includes(grant))).to.equal(true);
        const known = [
          'client_id',
          'client_secret',
          'client_secret_expires_at',
          'client_id_issued_at',
          'redirect_uris',
          'client_name',
          'grant_types',
          'response_types',
          'token_endpoint_auth_method',
          'scope',
          'client_uri',
          'logo_uri',
          'software_id',
          'software_version',
        ];
        expect(
          Object.keys(registered).filter((key) => !known.includes(key)),
          'nothing the door did not keep',
        ).to.deep.equal([]);

        const { verifier, challenge } = pkcePair();
        const authorize = new URL(`${door.href}/authorize`);
        authorize.search = new URLSearchParams({
          response_type: 'code',
          client_id: registered.client_id as string,
          redirect_uri: shape.redirectUri,
          code_challenge: challenge,
          code_challenge_method: 'S256',
          state: 'st',
          resource: door.href,
          ...(shape.authorizeScope ? { scope: shape.authorizeScope } : {}),
        }).toString();
        const answer = await consentInBrowser(authorize, 'ada');
        expect(answer.status).to.equal(303);
        const code = answer.location!.searchParams.get('code');
        expect(code, answer.location!.href).to.be.a('string');
        const secret = registered.client_secret as string | undefined;
        const tokens = await form(`${door.href}/token`, {
          grant_type: 'authorization_code',
          code: code!,
          redirect_uri: shape.redirectUri,
          code_verifier: verifier,
          client_id: registered.client_id as string,
          ...(secret ? { client_secret: secret } : {}),
        });
        const body = (await tokens.json()) as Record<string, unknown>;
        expect(tokens.status, JSON.stringify(body)).to.equal(200);
        expect(body.scope).to.equal('mcp');
        // A refresh asking for more gets the same narrowed scope.
        const refreshed = await form(`${door.href}/token`, {
          grant_type: 'refresh_token',
          refresh_token: body.refresh_token as string,
          scope: 'mcp offline_access',
          client_id: registered.client_id as string,
          ...(secret ? { client_secret: secret } : {}),
        });
        expect(refreshed.status).to.equal(200);
        expect(((await refreshed.json()) as { scope: string }).scope).to.equal('mcp');
      });
    }

    it('still refuses a registration with a redirect URI that could leak a code', async () => {
      for (const redirect_uris of [['http://evil.example/cb'], ['javascript:alert(1)'], ['https://ok.example/cb#x'], []]) {
        const response = await fetch(`${door.href}/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ client_name: 'x', redirect_uris, grant_types: ['authorization_code'] }),
        });
        expect(response.status, JSON.stringify(redirect_uris)).to.equal(400);
        expect(((await response.json()) as { error: string }).error).to.equal('invalid_redirect_uri');
      }
    });
  });

  it("describes Porter's apps tools honestly: creating an app is not read-only, and record data is typed", async () => {
    const { client } = await connectSdk(door, 'bea');
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.porter_apps_create!.annotations).to.deep.include({ readOnlyHint: false });
    expect(byName.porter_apps_open!.annotations).to.deep.include({ readOnlyHint: true });
    expect(byName.porter_apps_data_put!.annotations).to.deep.include({ readOnlyHint: false });
    const data = (byName.porter_apps_data_put!.inputSchema.properties as Record<string, { type?: unknown }>).data!;
    expect(data.type).to.deep.equal(['string', 'number', 'boolean', 'null', 'array', 'object']);
    await client.close();
  });

  describe("the door's answers in OAuth's shapes", () => {
    it('answers an unknown client_id at the token endpoint with 401 invalid_client and a WWW-Authenticate challenge', async () => {
      const requests: Array<Record<string, string>> = [
        { grant_type: 'refresh_token', refresh_token: 'whatever', client_id: 'mcpc_unknown000000' },
        {
          grant_type: 'authorization_code',
          code: 'x',
          redirect_uri: 'https://a.example/cb',
          code_verifier: 'v'.repeat(43),
          client_id: 'not-a-door-client',
        },
      ];
      for (const fields of requests) {
        const response = await form(`${door.href}/token`, fields);
        expect(response.status).to.equal(401);
        expect(response.headers.get('www-authenticate')).to.match(/^Basic realm=/);
        expect(await response.json()).to.include({ error: 'invalid_client' });
      }
    });

    it('answers /revoke with unreadable Basic credentials with 400 invalid_request', async () => {
      for (const credentials of ['bm8tY29sb24taGVyZQ==', Buffer.from('%zz:%zz').toString('base64')]) {
        const response = await form(`${door.href}/revoke`, { token: 'anything' }, { authorization: `Basic ${credentials}` });
        expect(response.status).to.equal(400);
        expect(await response.json()).to.include({ error: 'invalid_request' });
      }
    });

    it("answers a wrong method on /authorize and /connect with 405 in OAuth's shape, never the wire envelope", async () => {
      for (const [method, path] of [
        ['PUT', 'authorize'],
        ['DELETE', 'authorize'],
        ['PATCH', 'authorize'],
        ['POST', 'connect'],
        ['DELETE', 'connect'],
      ] as const) {
        const response = await fetch(`${door.href}/${path}`, {
          method,
          headers: { 'content-type': 'application/json' },
          body: method === 'DELETE' ? null : '{}',
        });
        expect(response.status, `${method} ${path}`).to.equal(405);
        const body = (await response.json()) as Record<string, unknown>;
        expect(Object.keys(body).sort(), `${method} ${path}`).to.deep.equal(['error', 'error_description']);
        expect(body.error).to.equal('invalid_request');
        expect(response.headers.get('allow')).to.be.a('string');
      }
    });
  });

  describe('the discovery documents and the Host they are asked with', () => {
    const documents = [
      ...ORIGIN_ROOT_DOCUMENTS,
      '/api/porter/mcp/.well-known/oauth-protected-resource',
      '/api/porter/mcp/.well-known/oauth-authorization-server',
    ];

    it('without a base URL, builds them from the Host but never lets a cache keep them', async () => {
      for (const path of documents) {
        const poisoned = await getWithHost(`${host.url}${path}`, 'evil.example');
        expect(poisoned.status, path).to.equal(200);
        expect(poisoned.body, path).to.contain('http://evil.example');
        expect(String(poisoned.headers['cache-control']), path).to.equal('no-store');
      }
    });

    it('answers each of more Hosts than it keeps in memory with its own URLs, then the first again', async () => {
      const path = '/.well-known/oauth-protected-resource/api/porter/mcp';
      for (const name of [...Array.from({ length: 20 }, (_, i) => `h${i}.example`), 'h0.example']) {
        const answer = await getWithHost(`${host.url}${path}`, name);
        expect(JSON.parse(answer.body), name).to.deep.include({ resource: `http://${name}/api/porter/mcp` });
      }
    });

    it('with a configured base URL, builds them from it whatever the Host says, and lets caches keep them', async () => {
      const based = await devHost({ env: { PORTER_BASE_URL: 'https://porter.example' } });
      try {
        for (const path of documents) {
          const poisoned = await getWithHost(`${based.url}${path}`, 'evil.example');
          expect(poisoned.status, path).to.equal(200);
          expect(poisoned.body, path).to.not.contain('evil.example');
          expect(poisoned.body, path).to.contain('https://porter.example/api/porter/mcp');
          expect(String(poisoned.headers['cache-control']), path).to.equal('public, max-age=300');
        }
      } finally {
        await based.close();
      }
    });
  });

  describe("the consent page and the host's principal(req)", () => {
    it("signs people in for consent through the door's own oauth.signIn (the demo cookie), never the host's resolver", async () => {
      const asked: string[] = [];
      const spied = await devHost({
        porter: {
          principal: (request: WireRequest) => {
            asked.push(request.path);
            return demoPrincipal(request);
          },
        },
      });
      try {
        const { client } = await connectSdk(new URL(`${spied.url}/api/porter/mcp`), 'ada');
        expect((await client.callTool({ name: 'notes_list', arguments: {} })).isError ?? false).to.equal(false);
        await client.close();
        // The wire still asks it, so the spy is wired where the door would have reached it.
        await spied.client.as('ada').json('GET', '/status');
        expect(asked.length).to.be.greaterThan(0);
        expect(asked.filter((path) => path.includes('/mcp'))).to.deep.equal([]);
      } finally {
        await spied.close();
      }
    });
  });

  describe('two instances on one PostgreSQL database', () => {
    it('answers every one of many refreshes racing across both instances, rotating once', async function () {
      const server = await postgresServerUrl();
      if (!server) return this.skip();
      const database = await createTestDatabase(server);
      const instances: Array<{ porter: Porter; server: Server; url: string }> = [];
      const servers: Server[] = [];
      try {
        // Both behind one public origin (the first instance's), as behind a load balancer: tokens are bound to it.
        const handlers: Array<(request: IncomingMessage, response: ServerResponse) => void> = [];
        servers.push(...[0, 1].map((i) => createServer((request, response) => handlers[i]!(request, response))));
        const urls: string[] = [];
        for (const listening of servers) {
          await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
          const address = listening.address();
          urls.push(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
        }
        for (let i = 0; i < 2; i++) {
          const porter = await createPorter(
            {
              development: false,
              secret: 'a-cluster-secret-for-the-tests-0123456789',
              databaseUrl: database.url,
              baseUrl: urls[0]!,
              scheduler: 'external',
              logger: 'silent',
              principal: demoPrincipal,
              tools: demoTools(),
              mcp: true,
              oauth: developmentOAuth(),
            },
            {},
          );
          handlers[i] = porter.listener;
          instances.push({ porter, server: servers[i]!, url: urls[i]! });
        }
        const doorOf = (i: number) => `${instances[i % 2]!.url}/api/porter/mcp`;
        const registered = await fetch(`${doorOf(0)}/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ client_name: 'two instances', redirect_uris: [CLIENT_REDIRECT], token_endpoint_auth_method: 'none' }),
        });
        const clientId = ((await registered.json()) as { client_id: string }).client_id;
        const { verifier, challenge } = pkcePair();
        const code = (await consentInBrowser(authorizeUrl(doorOf(0), clientId, challenge), 'ada')).location!.searchParams.get('code')!;
        const first = await form(`${doorOf(1)}/token`, {
          grant_type: 'authorization_code',
          code,
          redirect_uri: CLIENT_REDIRECT,
          code_verifier: verifier,
          client_id: clientId,
        });
        const { refresh_token } = (await first.json()) as { refresh_token: string };
        const racing = await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            form(`${doorOf(i)}/token`, { grant_type: 'refresh_token', refresh_token, client_id: clientId }),
          ),
        );
        expect(racing.map((answer) => answer.status)).to.deep.equal(Array.from({ length: 12 }, () => 200));
        const grants = (await Promise.all(racing.map((answer) => answer.json()))) as Array<{ access_token: string; refresh_token: string }>;
        for (const [i, grant] of grants.entries())
          expect((await doorRpc(doorOf(i + 1), grant.access_token, initializeRequest())).status).to.equal(200);
        // One rotation: every successor refresh token carries the family on (the first one used rotates it again).
        const next = await form(`${doorOf(0)}/token`, {
          grant_type: 'refresh_token',
          refresh_token: grants[5]!.refresh_token,
          client_id: clientId,
        });
        expect(next.status).to.equal(200);
      } finally {
        for (const listening of servers) {
          listening.closeAllConnections();
          await new Promise((resolve) => listening.close(resolve));
        }
        for (const instance of instances) await instance.porter.close();
        await database.drop();
      }
    });
  });
});
