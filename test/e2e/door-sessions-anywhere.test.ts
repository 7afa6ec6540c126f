import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createPorter, type Porter } from '../../composition/create-porter.js';
import { demoPrincipal } from '../../composition/dev-host/demo-principal.js';
import { developmentOAuth } from '../../composition/dev-host/dev-oauth.js';
import { accessTokenFor, initializeRequest } from '../support/door-client.js';
import { clusterPerSuite, type TurnCluster } from '../support/turn-cluster.js';
import { eventually } from '../support/eventually.js';
import { closeServer, freePort, listenOnLoopback } from '../support/http-server.js';
import { sleepTool } from '../support/sleep-tool.js';

const CALLS = 40;

/** The SDK client on `door` with `token`, connected (it initializes a session). */
async function sdkClient(door: URL, token: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(door, { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'door-sessions test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** Calls the read tool `count` times, one after another; every failure is counted, not thrown. */
async function callMany(client: Client, count: number): Promise<{ ok: number; failures: string[] }> {
  const failures: string[] = [];
  let ok = 0;
  for (let i = 0; i < count; i++) {
    try {
      const result = await client.callTool({ name: 'sleep', arguments: { seconds: 0 } });
      if (result.isError) failures.push(JSON.stringify(result.content));
      else ok++;
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
    }
  }
  return { ok, failures };
}

const rpc = (door: URL, token: string, session: string, method: string, body?: object) =>
  fetch(door, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: method === 'GET' ? 'text/event-stream' : 'application/json, text/event-stream',
      'mcp-session-id': session,
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

for (const backend of ['PostgreSQL', 'SQLite file'] as const) {
  describe(`Door sessions on two instances behind a round-robin balancer (${backend})`, function () {
    this.timeout(90_000);
    const running = clusterPerSuite(2, backend === 'PostgreSQL' ? 'postgresql' : 'sqlite', { door: true });
    let cluster: TurnCluster;
    let door: URL;
    let token: string;

    before(async () => {
      cluster = running();
      door = new URL(`${cluster.wire}/mcp`);
      token = await accessTokenFor(door, 'ada');
    });

    it('serves every call of an SDK client whichever instance answers: zero failures', async () => {
      const { client } = await sdkClient(door, token);
      const before = cluster.proxy.served.length;
      const { ok, failures } = await callMany(client, CALLS);
      expect(failures).to.deep.equal([]);
      expect(ok).to.equal(CALLS);
      const upstreams = new Set(cluster.proxy.served.slice(before).map((served) => served.upstream));
      expect([...upstreams].sort(), 'both instances answered calls of the one session').to.deep.equal([0, 1]);
      await client.close();
    });

    it('ends a session on every instance when it is deleted on one, and its event stream on the other ends', async () => {
      // Opened over raw HTTP: the SDK client would hold the one event stream itself.
      const opened = await fetch(door, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(initializeRequest()),
      });
      expect(opened.status).to.equal(200);
      const session = opened.headers.get('mcp-session-id')!;
      const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'sleep', arguments: { seconds: 0 } } };
      expect((await rpc(door, token, session, 'POST', call)).status).to.equal(200);
      const stream = await rpc(door, token, session, 'GET');
      expect(stream.status).to.equal(200);
      const streamedBy = cluster.proxy.served.at(-1)!.upstream;
      // The stream may carry keep-alive comments; it must end.
      const ended = (async () => {
        const reader = stream.body!.getReader();
        for (;;) if ((await reader.read()).done) return 'ended';
      })();
      const deleted = await rpc(door, token, session, 'DELETE');
      expect(deleted.status).to.equal(200);
      expect(cluster.proxy.served.at(-1)!.upstream, 'deleted on the other instance').to.not.equal(streamedBy);
      expect(await ended).to.equal('ended');
      // Both instances now answer the transport's prescribed 404, so a client starts a new session:
      // the one that deleted it at once, the other once its trust in what it read lapses (door.sessionCacheMs, 1 s).
      const ping = { jsonrpc: '2.0', id: 9, method: 'ping' };
      const statuses = async () => [
        (await rpc(door, token, session, 'POST', ping)).status,
        (await rpc(door, token, session, 'POST', ping)).status,
      ];
      // A second on a quiet machine; the cap leaves room for a busy one.
      expect(await eventually(async () => (await statuses()).every((status) => status === 404), 10_000)).to.equal(true);
      expect(await statuses()).to.deep.equal([404, 404]);
    });

    it("refuses a session id presented with another person's token on every instance", async () => {
      const { client, transport } = await sdkClient(door, token);
      const intruder = await accessTokenFor(door, 'mallory');
      const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
      const statuses = [];
      for (let i = 0; i < 2; i++) statuses.push((await rpc(door, intruder, transport.sessionId!, 'POST', ping)).status);
      expect(statuses).to.deep.equal([404, 404]);
      expect((await callMany(client, 2)).failures).to.deep.equal([]);
      await client.close();
    });

    it('keeps serving when an instance dies between calls: zero failures', async () => {
      const { client } = await sdkClient(door, token);
      expect((await callMany(client, 4)).failures).to.deep.equal([]);
      await cluster.kill(0);
      const { ok, failures } = await callMany(client, 10);
      expect(failures).to.deep.equal([]);
      expect(ok).to.equal(10);
    });
  });
}

describe('Door sessions across a restart (SQLite file)', function () {
  this.timeout(60_000);

  async function start(
    databaseUrl: string,
    port: number,
    shared?: { door: { sessionCacheMs: number }; baseUrl: string },
  ): Promise<{ porter: Porter; server: Server; url: string }> {
    const porter = await createPorter(
      {
        development: false,
        secret: 'a-restart-secret-for-the-tests-0123456789',
        databaseUrl,
        scheduler: 'external',
        logger: 'silent',
        tools: [sleepTool(5)],
        principal: demoPrincipal,
        mcp: true,
        oauth: developmentOAuth(),
        ...shared,
      },
      {},
    );
    const server = createServer(porter.listener);
    return { porter, server, url: await listenOnLoopback(server, port) };
  }

  /** One instance on a SQLite file of its own, restarted on the same port and file when the test says. */
  async function startRestartable(): Promise<{ door: URL; restart(): Promise<void>; stop(): Promise<void> }> {
    const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'porter-door-restart-')), 'porter.db')}`;
    let running = await start(databaseUrl, 0);
    const port = Number(new URL(running.url).port);
    const stop = async () => {
      await closeServer(running.server);
      await running.porter.close();
    };
    return {
      door: new URL(`${running.url}/api/porter/mcp`),
      async restart() {
        await stop();
        running = await start(databaseUrl, port);
      },
      stop,
    };
  }

  it('serves an SDK client through a restart of its instance between calls: zero failures', async () => {
    const instance = await startRestartable();
    try {
      const token = await accessTokenFor(instance.door, 'ada');
      const { client, transport } = await sdkClient(instance.door, token);
      const session = transport.sessionId;
      expect((await callMany(client, 3)).failures).to.deep.equal([]);
      for (let restart = 0; restart < 3; restart++) {
        await instance.restart();
        const { ok, failures } = await callMany(client, 3);
        expect(failures, `after restart ${restart + 1}`).to.deep.equal([]);
        expect(ok).to.equal(3);
      }
      expect(transport.sessionId, 'the same session all along').to.equal(session);
      await client.close();
    } finally {
      await instance.stop();
    }
  });

  it('answers 404 for a session that ended, and the SDK client starts a new one cleanly', async () => {
    const instance = await startRestartable();
    const door = instance.door;
    try {
      const token = await accessTokenFor(door, 'ada');
      const first = await sdkClient(door, token);
      const session = first.transport.sessionId!;
      expect((await rpc(door, token, session, 'DELETE')).status).to.equal(200);
      const refused = await rpc(door, token, session, 'POST', { jsonrpc: '2.0', id: 3, method: 'ping' });
      expect(refused.status).to.equal(404);
      expect(await refused.json()).to.deep.include({ error: { code: -32001, message: 'Session not found' } });
      // What the specification asks of a client on 404: a new initialize, without the old session id.
      const again = await sdkClient(door, token);
      expect(again.transport.sessionId).to.be.a('string').and.not.equal(session);
      expect((await callMany(again.client, 2)).failures).to.deep.equal([]);
      await again.client.close();
    } finally {
      await instance.stop();
    }
  });

  it('with door.sessionCacheMs 0, refuses at once on another instance a session ended on one', async () => {
    const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'porter-door-restart-')), 'porter.db')}`;
    // One site on two instances: a token is bound to the site's resource, whichever instance checks it.
    const port = await freePort();
    const shared = { door: { sessionCacheMs: 0 }, baseUrl: `http://127.0.0.1:${port}` };
    const [one, two] = [await start(databaseUrl, port, shared), await start(databaseUrl, 0, shared)];
    const doorOf = (running: { url: string }) => new URL(`${running.url}/api/porter/mcp`);
    try {
      const token = await accessTokenFor(doorOf(one), 'ada');
      const { transport } = await sdkClient(doorOf(one), token);
      const session = transport.sessionId!;
      const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
      // The second instance rebuilds the session, then serves it from its live form, having just read it from the store.
      for (const id of [1, 2]) expect((await rpc(doorOf(two), token, session, 'POST', ping(id))).status).to.equal(200);
      expect((await rpc(doorOf(one), token, session, 'DELETE')).status).to.equal(200);
      expect((await rpc(doorOf(two), token, session, 'POST', ping(3))).status).to.equal(404);
    } finally {
      for (const running of [one, two]) {
        await closeServer(running.server);
        await running.porter.close();
      }
    }
  });
});
