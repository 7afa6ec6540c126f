import { expect } from 'chai';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { devHost } from '../support/dev-host-fixture.js';
import { serve, type RunningServer } from '../support/http-server.js';
import { get, TOKENS } from '../../composition/tokens.js';
import type { DevHost } from '../../composition/dev-host/dev-host.js';
import { containerOf } from '../../composition/porter-container.js';
import { initializeRequest, doorRpc } from '../support/door-client.js';

/**
 * A stand-in external issuer speaking the protocol the door relies on: RFC 8414 metadata naming a
 * JWKS, and the JWKS itself. Tokens are signed here with its private key.
 */
async function externalIssuer(): Promise<
  RunningServer & { issuer: string; sign(claims: Record<string, unknown>, options?: { key?: CryptoKey; issuer?: string }): Promise<string> }
> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  let issuer = '';
  const server = await serve((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/oauth-authorization-server') {
      res.end(
        JSON.stringify({
          issuer,
          jwks_uri: `${issuer}/jwks`,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          response_types_supported: ['code'],
        }),
      );
    } else if (req.url === '/jwks') {
      res.end(JSON.stringify({ keys: [jwk] }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  issuer = server.url;
  return Object.assign(server, {
    issuer,
    async sign(claims: Record<string, unknown>, options: { key?: CryptoKey; issuer?: string } = {}) {
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setIssuer(options.issuer ?? issuer)
        .setIssuedAt()
        .setExpirationTime((claims.exp as number | undefined) ?? '10m')
        .sign(options.key ?? privateKey);
    },
  });
}

const INITIALIZE = initializeRequest();

describe('The MCP door with remoteAs (an external issuer)', function () {
  this.timeout(30_000);
  let issuer: Awaited<ReturnType<typeof externalIssuer>>;
  let host: DevHost;
  let door: string;

  before(async () => {
    issuer = await externalIssuer();
    host = await devHost({ porter: { remoteAs: { issuer: issuer.issuer } } });
    door = `${host.url}/api/porter/mcp`;
  });

  after(async () => {
    await host.close();
    await issuer.close();
  });

  it('reports the brokered door on /status', async () => {
    const status = await fetch(`${host.url}/api/porter/status`, { headers: { 'x-demo-user': 'ada' } });
    expect(((await status.json()) as { blocks: { mcp: unknown } }).blocks.mcp).to.equal('broker');
  });

  it('answers 404 for /authorize, /token, /revoke, /register and every RFC 8414 document', async () => {
    const paths = [
      ['GET', `${door}/authorize?response_type=code`],
      ['POST', `${door}/token`],
      ['POST', `${door}/revoke`],
      ['POST', `${door}/register`],
      ['GET', `${host.url}/.well-known/oauth-authorization-server/api/porter/mcp`],
      ['GET', `${host.url}/.well-known/oauth-authorization-server`],
      ['GET', `${door}/.well-known/oauth-authorization-server`],
    ] as const;
    for (const [method, url] of paths) {
      const response = await fetch(url, {
        method,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        ...(method === 'POST' ? { body: 'token=x&client_id=y' } : {}),
      });
      expect(response.status, `${method} ${url}`).to.equal(404);
    }
  });

  it('advertises the external issuer in the RFC 9728 metadata', async () => {
    for (const url of [`${host.url}/.well-known/oauth-protected-resource/api/porter/mcp`, `${door}/.well-known/oauth-protected-resource`]) {
      const metadata = (await (await fetch(url)).json()) as { resource: string; authorization_servers: string[] };
      expect(metadata).to.deep.include({ resource: door, authorization_servers: [issuer.issuer] });
    }
  });

  it("admits the issuer's JWTs (verified against its discovered JWKS) and runs tools through the unchanged transport", async () => {
    const token = await issuer.sign({ sub: 'ada', client_id: 'claude', aud: door, scope: 'mcp' });
    const client = new Client({ name: 'e2e-remote', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(door), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).to.include.members(['notes_list', 'notes_add', 'notes_clear', 'web_fetch']);
    const listed = (await client.callTool({ name: 'notes_list', arguments: {} })) as CallToolResult;
    expect(listed.isError ?? false).to.equal(false);
    const parked = (await client.callTool({ name: 'notes_add', arguments: { text: 'hi' } })) as CallToolResult;
    expect(parked.structuredContent).to.deep.include({ status: 'approval-required', risk: 'write' });
    await client.close();
  });

  it('refuses tokens badly signed, for another audience, from another issuer, or expired', async () => {
    const { privateKey: stranger } = await generateKeyPair('RS256');
    const tokens = {
      'signed by another key': await issuer.sign({ sub: 'ada', client_id: 'c', aud: door }, { key: stranger }),
      'for another audience': await issuer.sign({ sub: 'ada', client_id: 'c', aud: 'https://elsewhere.example/mcp' }),
      'from another issuer': await issuer.sign({ sub: 'ada', client_id: 'c', aud: door }, { issuer: 'https://impostor.example' }),
      expired: await issuer.sign({ sub: 'ada', client_id: 'c', aud: door, exp: Math.floor(Date.now() / 1000) - 600 }),
    };
    for (const [what, token] of Object.entries(tokens)) {
      const response = await doorRpc(door, token, INITIALIZE);
      expect(response.status, what).to.equal(401);
      expect(response.headers.get('www-authenticate'), what).to.contain('resource_metadata=');
    }
  });

  it('fails a tool call closed with a not-implemented tool error when the token names no client (no consent evidence)', async () => {
    const token = await issuer.sign({ sub: 'ada', aud: door });
    const opened = await doorRpc(door, token, INITIALIZE);
    expect(opened.status).to.equal(200);
    const sessionId = opened.headers.get('mcp-session-id')!;
    await doorRpc(door, token, { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionId);
    const called = await doorRpc(
      door,
      token,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'notes_list', arguments: {} } },
      sessionId,
    );
    const body = (await called.json()) as { result: CallToolResult };
    expect(body.result.isError).to.equal(true);
    expect((body.result.content[0] as { text: string }).text).to.match(/^not-implemented: /);
  });

  it('still re-resolves oauth.principal(subject): a subject the host does not know is refused', async () => {
    const token = await issuer.sign({ sub: 'not a demo name!', client_id: 'c', aud: door });
    expect((await doorRpc(door, token, INITIALIZE)).status).to.equal(401);
  });

  it('never persists the consent projected from the tokens', async () => {
    const store = get(containerOf(host.porter), TOKENS.Store);
    for (const name of ['door-consents', 'door-token-families', 'door-access-tokens', 'door-clients']) {
      expect((await store.records(name).list()).items, name).to.have.length(0);
    }
  });

  it('serves /connect, naming the external issuer', async () => {
    const response = await fetch(`${door}/connect`);
    expect(response.status).to.equal(200);
    expect(await response.text()).to.contain(issuer.issuer);
  });
});
