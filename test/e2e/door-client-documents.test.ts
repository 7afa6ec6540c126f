import type { ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { devHost } from '../support/dev-host-fixture.js';
import { BrowserlessProviderV2, CLIENT_REDIRECT, authorizeUrl, authorizedTokens, connectSdkV2, postForm } from '../support/door-client.js';
import { pkcePair } from '../support/door-harness.js';
import { scratchFolder } from '../support/scratch-folder.js';
import { selfSignedCertificate } from '../support/self-signed.js';
import { FetchedClientDocuments } from '../../adapters/mcp/fetched-client-documents.js';
import { GuardedEgress } from '../../adapters/shared/egress/guarded-egress.js';
import type { DevHost } from '../../composition/dev-host/dev-host.js';

import type { WireClient } from '../support/turn-client.js';

type Host = DevHost & { client: WireClient };

/** A client that names itself by its metadata document (SEP-991), as the MCP SDK's v2 client does it. */
class DocumentedProvider extends BrowserlessProviderV2 {
  constructor(
    person: string,
    readonly clientMetadataUrl: string,
  ) {
    super(person);
  }
}

/**
 * The HTTPS server a client publishes its document on, here on this machine under a certificate
 * the test process trusts: `localhost`, so the door reaches it only where loopback is allowed
 * (development). Counts the reads of each path.
 */
async function documentServer(folder: string) {
  const { key, cert } = await selfSignedCertificate(folder, 'localhost');
  const reads = new Map<string, number>();
  const stalled = new Set<ServerResponse>();
  let origin = '';
  const good = (path: string, extra: Record<string, unknown> = {}) => ({
    client_id: `${origin}${path}`,
    client_name: 'Documented Client',
    client_uri: 'https://documented.example',
    redirect_uris: [CLIENT_REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...extra,
  });
  const json = (response: ServerResponse, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(200, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
  const server: Server = createServer({ key, cert }, (request, response) => {
    const path = request.url ?? '/';
    reads.set(path, (reads.get(path) ?? 0) + 1);
    switch (path) {
      case '/sdk.json':
        return json(response, good(path), { 'cache-control': 'max-age=60' });
      case '/cached.json':
        return json(response, good(path), { 'cache-control': 'public, max-age=60' });
      case '/uncached.json':
        return json(response, good(path), { 'cache-control': 'no-store' });
      case '/forever.json':
        return json(response, good(path), { 'cache-control': 'max-age=31536000' });
      case '/redirect-private.json':
        response.writeHead(302, { location: 'https://10.0.0.1/client.json' });
        return response.end();
      case '/redirect-metadata.json':
        response.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' });
        return response.end();
      case '/oversize.json':
        // No content-length: the door must stop reading at its own cap.
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write(JSON.stringify(good(path)).slice(0, -1));
        response.write(`, "padding": "${'x'.repeat(64 * 1024)}"`);
        return response.end('}');
      case '/slow.json':
        // Headers and then nothing, ever.
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{');
        stalled.add(response);
        return;
      case '/not-json.json':
        response.writeHead(200, { 'content-type': 'text/html' });
        return response.end('<html>hello</html>');
      case '/mismatch.json':
        return json(response, good(path, { client_id: `${origin}/someone-else.json` }));
      case '/secret.json':
        return json(response, good(path, { token_endpoint_auth_method: 'client_secret_basic', client_secret: 'hunter2' }));
      default:
        response.writeHead(404);
        return response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, resolve));
  origin = `https://localhost:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    cert,
    reads,
    async close() {
      for (const response of stalled) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

type Documents = Awaited<ReturnType<typeof documentServer>>;

/** What the door answers a browser-less authorize and a token request naming `clientId`. */
async function refusals(door: string, clientId: string) {
  const { challenge } = pkcePair();
  const url = authorizeUrl(door, clientId, challenge);
  const authorize = await fetch(url, { redirect: 'manual', headers: { accept: 'application/json', cookie: 'porter_demo_user=ada' } });
  const token = await postForm(`${door}/token`, {
    grant_type: 'authorization_code',
    code: 'a-code',
    redirect_uri: CLIENT_REDIRECT,
    code_verifier: 'v'.repeat(43),
    client_id: clientId,
  });
  const revoke = await postForm(`${door}/revoke`, { token: 'a-token', client_id: clientId });
  type Refusal = { error: string; error_description: string };
  return {
    authorize: { status: authorize.status, body: (await authorize.json()) as Refusal },
    token: { status: token.status, body: (await token.json()) as Refusal },
    revoke: { status: revoke.status, body: (await revoke.json()) as Refusal },
  };
}

describe('The door reads clients from their Client ID Metadata Documents', function () {
  this.timeout(60_000);
  const trusted = getCACertificates('default');
  const folder = scratchFolder('client-documents-');
  let documents: Documents;
  let host: Host;
  let door: string;

  before(async () => {
    documents = await documentServer(folder.path());
    // The test's certificate is trusted as a public CA's would be; nothing in Porter is told to skip a check.
    setDefaultCACertificates([...trusted, documents.cert]);
    host = await devHost();
    door = `${host.url}/api/porter/mcp`;
  });

  after(async () => {
    await host?.close();
    await documents?.close();
    setDefaultCACertificates(trusted);
  });

  it('advertises client_id_metadata_document_supported beside dynamic registration', async () => {
    const metadata = (await (await fetch(`${door}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata).to.deep.include({ client_id_metadata_document_supported: true, registration_endpoint: `${door}/register` });
  });

  it('the MCP SDK v2 client connects with its document URL as client_id, registering nothing', async () => {
    const clientId = `${documents.origin}/sdk.json`;
    const provider = new DocumentedProvider('ada', clientId);
    const { client } = await connectSdkV2(new URL(door), 'ada', {}, provider);
    expect(provider.clientInformation()!.client_id).to.equal(clientId);
    expect(provider.authorizationUrl!.searchParams.get('client_id')).to.equal(clientId);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).to.include('notes_list');
    await client.close();
  });

  it('shows the document’s client name and host on the consent page', async () => {
    const { challenge } = pkcePair();
    const page = await fetch(authorizeUrl(door, `${documents.origin}/sdk.json`, challenge), {
      headers: { accept: 'text/html', cookie: 'porter_demo_user=bea' },
    });
    const html = await page.text();
    expect(page.status).to.equal(200);
    expect(html).to.contain('Connect Documented Client');
    expect(html).to.contain(`<strong>${new URL(documents.origin).host}</strong>`);
  });

  it('reads a document once while its max-age lasts: two whole authorizations, one fetch', async () => {
    const clientId = `${documents.origin}/cached.json`;
    for (const person of ['cai', 'dee']) expect((await authorizedTokens(door, clientId, person)).status, person).to.equal(200);
    expect(documents.reads.get('/cached.json')).to.equal(1);
  });

  it('reads a no-store document every time it needs it: authorize, code, refresh', async () => {
    const clientId = `${documents.origin}/uncached.json`;
    const tokens = await authorizedTokens(door, clientId, 'eli');
    expect(tokens.status).to.equal(200);
    const { refresh_token } = (await tokens.json()) as { refresh_token: string };
    const refreshed = await postForm(`${door}/token`, { grant_type: 'refresh_token', refresh_token, client_id: clientId });
    expect(refreshed.status).to.equal(200);
    expect(documents.reads.get('/uncached.json')).to.equal(3);
  });

  it('keeps a document no longer than an hour, whatever its max-age says', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const reader = new FetchedClientDocuments({ egress: new GuardedEgress({ allow: ['loopback'] }), now: () => now });
    const url = `${documents.origin}/forever.json`;
    expect((await reader.read(url)).ok).to.equal(true);
    now += 59 * 60_000;
    await reader.read(url);
    expect(documents.reads.get('/forever.json')).to.equal(1);
    now += 2 * 60_000;
    await reader.read(url);
    expect(documents.reads.get('/forever.json')).to.equal(2);
  });

  it('refuses a redirect_uri the document does not list, on the page, never redirecting to it', async () => {
    const { challenge } = pkcePair();
    const url = authorizeUrl(door, `${documents.origin}/cached.json`, challenge);
    url.searchParams.set('redirect_uri', 'https://attacker.example/callback');
    const answer = await fetch(url, { redirect: 'manual', headers: { accept: 'application/json' } });
    expect(answer.status).to.equal(400);
    expect(await answer.json()).to.deep.equal({
      error: 'invalid_request',
      error_description: 'redirect_uri is not registered for this client',
    });
  });

  const hostile: ReadonlyArray<[string, string, RegExp]> = [
    ['redirects to a private address', '/redirect-private.json', /redirects; the door does not follow redirects$/],
    ['redirects to the cloud metadata address', '/redirect-metadata.json', /redirects; the door does not follow redirects$/],
    ['is larger than 5 KiB', '/oversize.json', /is larger than 5120 bytes$/],
    ['is not JSON', '/not-json.json', /is not JSON$/],
    ['names another client_id', '/mismatch.json', /must name its own URL as client_id$/],
    ['asks for a client secret', '/secret.json', /must not contain a client_secret/],
    ['is not there', '/missing.json', /answered 404, not 200$/],
  ];
  for (const [what, path, problem] of hostile) {
    it(`a document that ${what} is invalid_client on authorize, token and revoke`, async () => {
      const clientId = `${documents.origin}${path}`;
      const { authorize, token, revoke } = await refusals(door, clientId);
      expect(authorize.status).to.equal(400);
      expect(authorize.body.error).to.equal('invalid_client');
      expect(authorize.body.error_description).to.match(problem).and.contain(`The client metadata document at ${clientId}`);
      expect(token.status).to.equal(401);
      expect(token.body).to.deep.equal(authorize.body);
      expect(revoke.status).to.equal(400);
      expect(revoke.body).to.deep.equal(authorize.body);
    });
  }

  it('a document that never finishes arriving is invalid_client within 5 s, on authorize, token and revoke', async () => {
    const started = Date.now();
    const { authorize, token, revoke } = await refusals(door, `${documents.origin}/slow.json`);
    for (const answer of [authorize, token, revoke]) expect(answer.body.error_description).to.match(/did not arrive within 5 s$/);
    expect([authorize.status, token.status, revoke.status]).to.deep.equal([400, 401, 400]);
    // Three reads, each cut off at its 5 s deadline: never a hang.
    expect(Date.now() - started).to.be.below(3 * 6_000);
  });

  it('refuses client_id URLs the draft rules out before fetching anything', async () => {
    const cases: ReadonlyArray<[string, RegExp]> = [
      [`http://localhost:${new URL(documents.origin).port}/sdk.json`, /must use https$/],
      [`${documents.origin}/`, /must have a path$/],
      [`${documents.origin}/a/../sdk.json`, /must not contain \. or \.\. path segments$/],
      [`${documents.origin}/sdk.json#x`, /must not contain a fragment$/],
      [`${documents.origin}/a\\..\\sdk.json`, /must not contain backslashes, spaces or control characters$/],
      [`https://user:pass@localhost:${new URL(documents.origin).port}/sdk.json`, /must not carry credentials$/],
    ];
    const before = [...documents.reads.values()].reduce((a, b) => a + b, 0);
    for (const [clientId, problem] of cases) {
      const { authorize, token } = await refusals(door, clientId);
      expect(authorize.body.error, clientId).to.equal('invalid_client');
      expect(authorize.body.error_description, clientId).to.match(problem);
      expect(token.status, clientId).to.equal(401);
    }
    expect([...documents.reads.values()].reduce((a, b) => a + b, 0)).to.equal(before);
  });
});

describe('In production the door fetches client documents from public addresses over https only', function () {
  this.timeout(60_000);
  let host: Host;
  let door: string;

  before(async () => {
    host = await devHost({ env: { NODE_ENV: 'production' } });
    door = `${host.url}/api/porter/mcp`;
  });

  after(async () => {
    await host?.close();
  });

  for (const [clientId, problem] of [
    ['https://localhost:9/client.json', /cannot be fetched: Porter will not connect to localhost: it resolves to a loopback address$/],
    ['https://127.0.0.1:9/client.json', /Porter will not connect to 127\.0\.0\.1: it is a loopback address/],
    ['https://10.0.0.1/client.json', /Porter will not connect to 10\.0\.0\.1: it is a private-network address$/],
    ['https://169.254.169.254/latest/meta-data/', /Porter will not connect to 169\.254\.169\.254: it is a link-local address/],
    ['http://documents.example/client.json', /must use https$/],
  ] as const) {
    it(`${clientId} is invalid_client on authorize, token and revoke`, async () => {
      const { authorize, token, revoke } = await refusals(door, clientId);
      expect(authorize.status).to.equal(400);
      expect(authorize.body.error).to.equal('invalid_client');
      expect(authorize.body.error_description).to.match(problem);
      expect(token.status).to.equal(401);
      expect(token.body.error).to.equal('invalid_client');
      expect(revoke.status).to.equal(400);
      expect(revoke.body.error).to.equal('invalid_client');
    });
  }
});
