import { expect } from 'chai';
import type { UIMessage } from 'ai';
import { devHost } from '../support/dev-host-fixture.js';
import { eventually } from '../support/eventually.js';
import { CookieJar } from '../support/http-server.js';
import { RecordingLogger } from '../support/fakes.js';
import type { WireClient } from '../support/turn-client.js';
import { NangoBrokerServer } from '../support/nango-broker-server.js';
import { ComposioBrokerServer } from '../support/composio-broker-server.js';
import { CloudBrokerServer } from '../support/cloud-broker-server.js';
import type { DevHost } from '../../composition/dev-host/dev-host.js';
import { get } from '../../composition/tokens.js';
import { CONNECTION_TOKENS } from '../../composition/modules/connections-tokens.js';
import { containerOf } from '../../composition/porter-container.js';
import { githubWhoami } from '../support/github-tools.js';

type Host = DevHost & { client: WireClient };
type Part = Record<string, any>;

/** The person's part of a flow the broker owns: open its page (the browser follows nothing back). */
async function consent(redirectUrl: string): Promise<Response> {
  return fetch(redirectUrl, { redirect: 'manual' });
}

/** What a client does after initiating: poll until the status settles. */
async function pollUntilSettled(client: WireClient, id: string): Promise<string> {
  let status = 'initiated';
  await eventually(async () => {
    const polled = await client.json('GET', `/connections/${id}`);
    expect(polled.status).to.equal(200);
    status = polled.body.status;
    return status !== 'initiated';
  }, 500);
  return status;
}

interface FakeBroker {
  start(): Promise<string>;
  close(): Promise<void>;
}

/**
 * One broker the host can be pointed at: its fake server, the environment naming it, and how many
 * connections the server holds (so a test can see one made, and gone after a disconnect).
 */
function broker<Server extends FakeBroker>(
  name: string,
  kind: 'byo' | 'cloud',
  make: () => Server,
  env: (server: Server, url: string) => Record<string, string>,
  held: (server: Server) => number,
) {
  return {
    name,
    kind,
    async start() {
      const server = make();
      const url = await server.start();
      return { env: env(server, url), held: () => held(server), close: () => server.close() };
    },
  };
}

const brokers = [
  broker(
    'Nango (self-hosted, NANGO_SECRET_KEY + NANGO_HOST)',
    'byo',
    () => new NangoBrokerServer('nango-e2e-secret-0123456789'),
    (server, url) => ({ NANGO_SECRET_KEY: server.secretKey, NANGO_HOST: url }),
    (server) => server.connections.size,
  ),
  broker(
    'Composio (COMPOSIO_API_KEY + COMPOSIO_BASE_URL)',
    'byo',
    () => new ComposioBrokerServer('composio-e2e-key-0123456789'),
    (server, url) => ({ COMPOSIO_API_KEY: server.apiKey, COMPOSIO_BASE_URL: url }),
    (server) => server.accounts.size,
  ),
  broker(
    'Porter Cloud (PORTER_CONNECTIONS_URL + PORTER_CONNECTIONS_KEY)',
    'cloud',
    () => new CloudBrokerServer('cloud-e2e-key-0123456789'),
    (server, url) => ({ PORTER_CONNECTIONS_URL: url, PORTER_CONNECTIONS_KEY: server.key }),
    (server) => server.connections.size,
  ),
];

describe('Connections through the running development host', function () {
  this.timeout(30_000);

  for (const broker of brokers) {
    describe(broker.name, () => {
      let host: Host;
      let local: Awaited<ReturnType<(typeof brokers)[number]['start']>>;
      before(async () => {
        local = await broker.start();
        host = await devHost({ env: local.env, porter: { tools: [githubWhoami] } });
      });
      after(async () => {
        await host.close();
        await local.close();
      });

      it(`reports connections: "${broker.kind}" in /status`, async () => {
        expect((await host.client.as('ada').json('GET', '/status')).body.blocks.connections).to.equal(broker.kind);
      });

      it('lists the toolkits the broker can connect, each with a name, to pick from', async () => {
        const listed = await host.client.as('ada').json('GET', '/connections/toolkits');
        expect(listed.status).to.equal(200);
        expect(listed.body.toolkits.map((t: { toolkit: string }) => t.toolkit).sort()).to.deep.equal(['github', 'slack']);
        for (const t of listed.body.toolkits) expect(t.name).to.be.a('string').and.not.equal('');
      });

      it("initiate → the broker's page → poll → active → listed → delete → gone, at the broker too", async () => {
        const ada = host.client.as('ada');
        const started = await ada.json('POST', '/connections/initiate', { toolkit: 'github', callbackUrl: `${host.url}/settings` });
        expect(started.status).to.equal(201);
        expect(started.body.id).to.match(/^con_/);
        expect(started.body.redirectUrl.startsWith('http://127.0.0.1:')).to.equal(true);
        expect(Object.keys(started.body).sort()).to.deep.equal(['id', 'redirectUrl']);
        expect((await ada.json('GET', `/connections/${started.body.id}`)).body).to.deep.equal({
          id: started.body.id,
          toolkit: 'github',
          status: 'initiated',
        });

        const back = await consent(started.body.redirectUrl);
        if (back.status === 302) expect(back.headers.get('location')!.startsWith(`${host.url}/settings?`)).to.equal(true);
        expect(await pollUntilSettled(ada, started.body.id)).to.equal('active');
        expect(local.held()).to.equal(1);

        const listed = await ada.json('GET', '/connections');
        expect(listed.body).to.deep.equal({
          connections: [{ id: started.body.id, toolkit: 'github', status: 'active' }],
          nextCursor: null,
        });

        expect((await ada.send('DELETE', `/connections/${started.body.id}`)).status).to.equal(204);
        expect(local.held()).to.equal(0);
        const gone = await ada.json('GET', `/connections/${started.body.id}`);
        expect(gone.status).to.equal(404);
        expect(gone.body.error.code).to.equal('not-found');
      });

      it('keeps connections to their owner: another person gets 404 for the id and an empty list', async () => {
        const ada = host.client.as('ada');
        const bob = host.client.as('bob');
        const started = await ada.json('POST', '/connections/initiate', { toolkit: 'slack', callbackUrl: `${host.url}/settings` });
        expect((await bob.json('GET', `/connections/${started.body.id}`)).status).to.equal(404);
        expect((await bob.send('DELETE', `/connections/${started.body.id}`)).status).to.equal(404);
        expect((await bob.json('GET', '/connections')).body.connections).to.deep.equal([]);
        expect((await ada.send('DELETE', `/connections/${started.body.id}`)).status).to.equal(204);
      });

      it('a tool whose connection is missing fails so the chat can offer to connect; once connected it runs through the broker', async () => {
        const carol = host.client.as('carol');
        const thread = await carol.newThread();
        const first = await carol.say(thread, '/call github_whoami {}');
        const failed = first.message.parts.find((p) => p.type === 'tool-github_whoami') as Part;
        expect(failed.state).to.equal('output-error');
        expect(failed.errorText).to.contain('Connection required').and.contain('github');
        const offer = first.message.parts.find((p) => p.type === 'data-porter-connect') as Part;
        expect(offer).to.deep.include({ id: `porter-connect:${failed.toolCallId}` });
        expect(offer.data).to.deep.equal({ toolkit: 'github', tool: 'github_whoami', toolCallId: failed.toolCallId });
        // The part is kept with the thread, so a reload still offers the connect action.
        const stored = (await carol.json('GET', `/threads/${thread}`)).body.messages as UIMessage[];
        expect(JSON.stringify(stored)).to.contain('data-porter-connect');

        const started = await carol.json('POST', '/connections/initiate', { toolkit: offer.data.toolkit, callbackUrl: `${host.url}/` });
        await consent(started.body.redirectUrl);
        expect(await pollUntilSettled(carol, started.body.id)).to.equal('active');
        const second = await carol.say(thread, '/call github_whoami {}');
        const ran = second.message.parts.find((p) => p.type === 'tool-github_whoami') as Part;
        expect(ran.state).to.equal('output-available');
        expect(ran.output.status).to.equal(200);
        expect(ran.output.user).to.deep.include({ provider: 'github', method: 'GET', path: '/user' });
      });
    });
  }

  describe('without a broker', () => {
    let host: Host;
    before(async () => {
      host = await devHost({ porter: { tools: [githubWhoami] } });
    });
    after(() => host.close());

    it('reports connections: false and answers the routes with not-implemented', async () => {
      const ada = host.client.as('ada');
      expect((await ada.json('GET', '/status')).body.blocks.connections).to.equal(false);
      const refused = await ada.json('POST', '/connections/initiate', { toolkit: 'github', callbackUrl: `${host.url}/` });
      expect(refused.status).to.equal(501);
      expect(refused.body.error.code).to.equal('not-implemented');
      expect(refused.body.error.message).to.contain('NANGO_SECRET_KEY');
      expect((await ada.json('GET', '/connections')).status).to.equal(501);
      expect((await ada.json('GET', '/connections/toolkits')).status).to.equal(501);
    });

    it('a tool that needs a connection says the deployment has no broker (no connect offer)', async () => {
      const ada = host.client.as('ada');
      const turn = await ada.say(await ada.newThread(), '/call github_whoami {}');
      const part = turn.message.parts.find((p) => p.type === 'tool-github_whoami') as Part;
      expect(part.state).to.equal('output-error');
      expect(part.errorText).to.contain('No connection broker is configured');
      expect(turn.message.parts.some((p) => p.type === 'data-porter-connect')).to.equal(false);
    });
  });

  describe('the wire edge', () => {
    let host: Host;
    let nango: NangoBrokerServer;
    const logger = new RecordingLogger();
    before(async () => {
      nango = new NangoBrokerServer('nango-e2e-secret-0123456789');
      host = await devHost({ env: { NANGO_SECRET_KEY: nango.secretKey, NANGO_HOST: await nango.start() }, porter: { logger } });
    });
    after(async () => {
      await host.close();
      await nango.close();
    });

    it('refuses bad initiations with the validation envelope', async () => {
      const ada = host.client.as('ada');
      for (const body of [
        { toolkit: 'GitHub', callbackUrl: `${host.url}/` },
        { toolkit: 'github', callbackUrl: 'javascript:alert(1)' },
        { toolkit: 'github', callbackUrl: 'https://user:pw@host.example/' },
        // Shaped like URLs but unparseable (a port past 65535): refused, never a 500.
        { toolkit: 'github', callbackUrl: 'http://[::1]:99999/' },
        { toolkit: 'github', callbackUrl: 'https://host.example:70000/settings' },
        { toolkit: 'github', callbackUrl: `${host.url}/`, id: 'con_chosen_by_client' },
        { toolkit: 'github' },
      ]) {
        const refused = await ada.json('POST', '/connections/initiate', body);
        expect(refused.status, JSON.stringify(body)).to.equal(400);
        expect(refused.body.error.code).to.equal('validation');
      }
      expect(nango.sessions.size).to.equal(0);
    });

    it('a broker that refuses the toolkit answers 400 with its reason, not the key', async () => {
      const refused = await host.client
        .as('ada')
        .json('POST', '/connections/initiate', { toolkit: 'not-configured', callbackUrl: `${host.url}/` });
      expect(refused.status).to.equal(400);
      expect(refused.body.error.message).to.contain('nango').and.not.contain(nango.secretKey);
    });

    it('a broker that is down: initiate answers 503, a poll keeps the stored state, and the key appears in no log line', async () => {
      const ada = host.client.as('ada');
      const started = await ada.json('POST', '/connections/initiate', { toolkit: 'github', callbackUrl: `${host.url}/` });
      nango.http.outage = { status: 502, body: { error: { code: 'bad_gateway' } } };
      try {
        const failed = await ada.json('POST', '/connections/initiate', { toolkit: 'github', callbackUrl: `${host.url}/` });
        expect(failed.status).to.equal(503);
        expect(failed.body.error.code).to.equal('unavailable');
        expect(JSON.stringify(failed.body)).to.not.contain(nango.secretKey);
        const polled = await ada.json('GET', `/connections/${started.body.id}`);
        expect(polled.body.status).to.equal('initiated');
      } finally {
        nango.http.outage = null;
      }
      expect(logger.text()).to.contain('could not ask the connection broker');
      expect(logger.text()).to.not.contain(nango.secretKey);
    });

    it('connected accounts stay with their subject when an anonymous session is adopted', async () => {
      const jar = new CookieJar();
      const wire = `${host.url}${host.porter.mount}`;
      const asVisitor = async (method: string, path: string, body?: unknown, user?: string) => {
        const response = await fetch(`${wire}${path}`, {
          method,
          headers: {
            cookie: jar.header(),
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...(user ? { 'x-demo-user': user } : {}),
          },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });
        jar.absorb(response);
        const text = await response.text();
        return { status: response.status, body: text ? JSON.parse(text) : null };
      };
      const started = await asVisitor('POST', '/connections/initiate', { toolkit: 'github', callbackUrl: `${host.url}/` });
      expect(started.status).to.equal(201);
      const threadBefore = await asVisitor('POST', '/threads', {});
      expect(threadBefore.status).to.equal(201);
      // Signing in adopts the anonymous session: threads move, the connection does not.
      const threads = await asVisitor('GET', '/threads', undefined, 'dora');
      expect(threads.body.threads.map((t: { id: string }) => t.id)).to.include(threadBefore.body.id);
      expect((await asVisitor('GET', '/connections', undefined, 'dora')).body.connections).to.deep.equal([]);
      expect((await asVisitor('GET', `/connections/${started.body.id}`, undefined, 'dora')).status).to.equal(404);
      const kept = await get(containerOf(host.porter), CONNECTION_TOKENS.ConnectionBook).find(started.body.id);
      expect(kept!.connection.owner).to.match(/^porter:anon:/);
    });
  });
});
