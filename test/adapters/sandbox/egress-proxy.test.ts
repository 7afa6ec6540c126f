import { expect } from 'chai';
import { request, type IncomingMessage } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EgressResolver } from '../../../adapters/sandbox/egress/egress-proxy.js';
import { listeningProxy, type ListeningProxy } from '../../support/listening-proxy.js';
import { ruleFor } from '../../../adapters/sandbox/egress/egress-rules.js';
import { LocalSandbox } from '../../../adapters/sandbox/local/local-sandbox.js';
import { serve, type RunningServer } from '../../support/http-server.js';
import { callFn, nodeApp, type EgressAnswer } from '../../support/sandbox-apps.js';

/** `rebind.example` resolves to this machine, as the attacker arranged it. */
const rebinding: EgressResolver = async (host) => {
  if (host === 'rebind.example') return '127.0.0.1';
  throw new Error(`${host} is not mapped`);
};

const POLICY = { allowDomains: ['rebind.example'] };

/** A CONNECT through the proxy with Node's own HTTP client, as a proxy-aware app sends it. */
function connectThrough(proxy: ListeningProxy, authority: string): Promise<{ status: number; body: string; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port: proxy.port, method: 'CONNECT', path: authority, headers: { host: authority } });
    outgoing.once('connect', (answer: IncomingMessage, socket: Socket, head: Buffer) => {
      let body = head.toString();
      if (answer.statusCode === 200) return resolve({ status: 200, body, socket });
      socket.on('data', (chunk: Buffer) => (body += chunk.toString()));
      socket.once('end', () => resolve({ status: answer.statusCode ?? 0, body, socket }));
    });
    outgoing.once('error', reject);
    outgoing.end();
  });
}

/** A plain-HTTP request in absolute form through the proxy. */
function getThrough(proxy: ListeningProxy, url: string): Promise<{ status: number; body: string; refused: string | undefined }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port: proxy.port, path: url, headers: { host: new URL(url).host } }, (answer) => {
      let body = '';
      answer.on('data', (chunk: Buffer) => (body += chunk.toString()));
      answer.once('end', () =>
        resolve({ status: answer.statusCode ?? 0, body, refused: answer.headers['x-porter-egress'] as string | undefined }),
      );
    });
    outgoing.once('error', reject);
    outgoing.end();
  });
}

describe("the apps' egress proxy checks addresses, not only names", () => {
  /** Stands in for PostgreSQL (or Porter's own wire) on loopback, counting who reaches it. */
  let database: Server;
  let databasePort: number;
  let reached = 0;
  let proxy: ListeningProxy | null = null;

  before(async () => {
    database = createServer((socket) => {
      reached += 1;
      socket.end('database greeting');
    });
    await new Promise<void>((resolve) => database.listen(0, '127.0.0.1', resolve));
    databasePort = (database.address() as { port: number }).port;
  });
  after(() => new Promise<void>((resolve) => database.close(() => resolve())));
  beforeEach(() => {
    reached = 0;
  });
  afterEach(async () => {
    await proxy?.close();
    proxy = null;
  });

  it('CONNECT rebind.example:5432 with rebind.example allowed but resolving to 127.0.0.1: 403, never 200', async () => {
    proxy = await listeningProxy({ rule: () => ruleFor(POLICY), resolve: rebinding });
    for (const port of [5432, databasePort]) {
      const answer = await connectThrough(proxy, `rebind.example:${port}`);
      expect(answer.status, `port ${port}`).to.equal(403);
      expect(answer.body).to.equal('Porter will not connect to rebind.example: it resolves to a loopback address');
    }
    expect(reached).to.equal(0);
  });

  it('plain HTTP to an allowed name resolving to loopback is refused the same way', async () => {
    proxy = await listeningProxy({ rule: () => ruleFor(POLICY), resolve: rebinding });
    const answer = await getThrough(proxy, `http://rebind.example:${databasePort}/api/porter/status`);
    expect([answer.status, answer.refused]).to.deep.equal([403, 'refused']);
    expect(answer.body).to.contain('loopback');
    expect(reached).to.equal(0);
  });

  it('with the system resolver: an allowed localhost (in any case, with a trailing dot) is refused as loopback', async () => {
    proxy = await listeningProxy({ rule: () => ruleFor({ allowDomains: ['localhost'] }) });
    for (const host of ['localhost', 'LOCALHOST', 'localhost.']) {
      expect((await connectThrough(proxy, `${host}:${databasePort}`)).status, host).to.equal(403);
    }
    expect(reached).to.equal(0);
  });

  it('connects the tunnel to the address it checked: a resolver that would answer differently the second time is asked once', async () => {
    let asked = 0;
    const flipping: EgressResolver = Object.assign(async () => (++asked === 1 ? '127.0.0.1' : '169.254.169.254'), {
      allows: ['loopback'] as const,
    });
    proxy = await listeningProxy({ rule: () => ruleFor(POLICY), resolve: flipping });
    const answer = await connectThrough(proxy, `rebind.example:${databasePort}`);
    expect(answer.status).to.equal(200);
    const greeting = await new Promise<string>((resolve) => {
      let text = answer.body;
      answer.socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      answer.socket.once('end', () => resolve(text));
    });
    expect(greeting).to.equal('database greeting');
    expect(asked).to.equal(1);
  });

  describe('a served app on the local sandbox', function () {
    this.timeout(30_000);
    let root: string;
    let upstream: RunningServer;
    let sandbox: LocalSandbox;

    before(async () => {
      root = await realpath(await mkdtemp(join(tmpdir(), 'porter-egress-guard-')));
      upstream = await serve((_request, response) => response.end("the host's own wire"));
    });
    after(async () => {
      await sandbox?.closeAll();
      await upstream.close();
      await rm(root, { recursive: true, force: true });
    });

    it('cannot reach the host through an allowed name that resolves to loopback', async () => {
      sandbox = new LocalSandbox({ root, resolve: rebinding, startTimeoutMs: 5000 });
      const session = await sandbox.open('app_rebinding', { egress: POLICY });
      await session.writeFiles(nodeApp('rebinding'));
      await session.start();
      const port = new URL(upstream.url).port;
      // Through fetch and through the http module, the preload turns the proxy's 403 into the app's own error, which says why.
      for (const fn of ['fetch', 'http-get']) {
        const answer = await callFn<EgressAnswer>(session, fn, { url: `http://rebind.example:${port}/api/porter/status` });
        expect(answer, fn).to.deep.equal({
          error:
            "egress refused: Porter will not connect to rebind.example: it resolves to a loopback address (only HTTP(S) through the sandbox's egress proxy leaves the sandbox)",
        });
      }
    });
  });
});
