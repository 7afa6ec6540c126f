import { expect } from 'chai';
import type { Sandbox, SandboxSession } from '../../../ports/sandbox.js';
import type { EgressResolver } from '../../../adapters/sandbox/egress/egress-proxy.js';
import { serve, type RunningServer } from '../../support/http-server.js';
import {
  brokenApp,
  callFn,
  crashingApp,
  eventually,
  nodeApp,
  silentApp,
  startShApp,
  type EchoBody,
  type EgressAnswer,
} from '../../support/sandbox-apps.js';

/** What each adapter's test file hands the suite: a sandbox wired to its counterpart, and how to tear both down. */
export interface SandboxUnderTest {
  readonly sandbox: Sandbox;
  close(): Promise<void>;
}

export interface SandboxSettings {
  /** Resolves `allowed.test` (and its subdomains) to loopback, where the suite's upstream listens. */
  readonly resolve: EgressResolver;
  /** Short, so the never-listening server fails the test quickly. */
  readonly startTimeoutMs: number;
}

export const ALLOWED_DOMAIN = 'allowed.test';

/** Maps the allowed names to loopback, where the suite's upstream listens: so it allows loopback by name. */
export const testResolver: EgressResolver = Object.assign(
  async (host: string) => {
    if (host === ALLOWED_DOMAIN || host.endsWith(`.${ALLOWED_DOMAIN}`) || host === 'localhost') return '127.0.0.1';
    throw new Error(`test resolver: ${host} is not mapped`);
  },
  { allows: ['loopback'] as const },
);

/** A remote sandbox adapter and the local server, speaking its API, that it talks to. */
export interface ServedSandbox<Server extends { close(): Promise<void> }, Adapter extends Sandbox> {
  readonly server: Server;
  readonly sandbox: Adapter;
}

/** The Sandbox port's behaviour for a remote adapter, against a fresh local server of its API. */
export function servedBehavesAsSandbox<Server extends { close(): Promise<void> }, Adapter extends Sandbox>(
  open: (settings: SandboxSettings) => Promise<ServedSandbox<Server, Adapter>>,
  options: { sideBySide?: boolean } = {},
): void {
  behavesAsSandbox(async (settings) => {
    const { server, sandbox } = await open(settings);
    return { sandbox, close: () => server.close() };
  }, options);
}

/**
 * For each test, a remote adapter and its local server (the test resolver, short starts), both
 * closed after it. Call it in a `describe`; `server()` and `sandbox()` read them.
 */
export function servedSandboxPerTest<Server extends { close(): Promise<void> }, Adapter extends Sandbox>(
  open: (settings: SandboxSettings) => Promise<ServedSandbox<Server, Adapter>>,
): { server(): Server; sandbox(): Adapter } {
  let current: ServedSandbox<Server, Adapter> | undefined;
  beforeEach(async () => {
    current = await open({ resolve: testResolver, startTimeoutMs: 2500 });
  });
  afterEach(async () => {
    await current?.sandbox.closeAll();
    await current?.server.close();
    current = undefined;
  });
  const opened = () => {
    if (!current) throw new Error('the sandbox and its server are made before each test');
    return current;
  };
  return { server: () => opened().server, sandbox: () => opened().sandbox };
}

let counter = 0;
const appId = (what: string) => `app_${what}_${process.pid}_${++counter}`;

/**
 * The Sandbox port's behaviour, proven once and run against every adapter (local process, e2b over
 * a local server speaking its protocol, the cloud API over a local server implementing its document).
 */
export function behavesAsSandbox(
  openSandbox: (settings: SandboxSettings) => Promise<SandboxUnderTest>,
  /** `sideBySide`: the adapter starts a new server beside the one serving (the local one does). */
  { sideBySide = false }: { sideBySide?: boolean } = {},
): void {
  let underTest: SandboxUnderTest;
  let sandbox: Sandbox;
  let upstream: RunningServer;

  before(async () => {
    upstream = await serve((request, response) => response.end(`upstream saw ${request.headers.host}`));
    underTest = await openSandbox({ resolve: testResolver, startTimeoutMs: 2500 });
    sandbox = underTest.sandbox;
  });

  after(async () => {
    await sandbox.closeAll();
    await underTest.close();
    await upstream.close();
  });

  const upstreamPort = () => new URL(upstream.url).port;

  async function served(
    files: Parameters<SandboxSession['writeFiles']>[0],
    egress: { allowDomains: string[] } | null = null,
    id = appId('served'),
  ): Promise<SandboxSession> {
    const session = await sandbox.open(id, { egress });
    await session.writeFiles(files);
    await session.start();
    return session;
  }

  it('serves a Node app: start resolves once it listens, and fetch reaches its POST /fn/<name>', async () => {
    const session = await served(nodeApp('hello'));
    expect(await session.isListening()).to.equal(true);
    const echo = await callFn<EchoBody>(session, 'echo', { n: 1 });
    expect(echo).to.deep.include({ label: 'hello', startedBy: null });
    expect(echo.body).to.deep.equal({ n: 1 });
    expect(Number(echo.port)).to.be.greaterThan(0);
  });

  it('boots /app/start.sh when present, with PORT set', async () => {
    const session = await served(startShApp('from-script'));
    const echo = await callFn<EchoBody>(session, 'echo');
    expect(echo).to.deep.include({ label: 'from-script', startedBy: 'start.sh' });
    expect(Number(echo.port)).to.be.greaterThan(0);
  });

  it('start rejects with the tail of the server output when the server crashes, and nothing listens', async () => {
    const session = await sandbox.open(appId('crash'), { egress: null });
    await session.writeFiles(crashingApp());
    const failure = await session.start().then(
      () => null,
      (error: Error) => error,
    );
    expect(failure, 'start should reject').to.be.instanceOf(Error);
    expect(failure!.message).to.contain('boom: DATABASE_URL is not set');
    expect(await session.isListening()).to.equal(false);
  });

  it('start rejects when the server never listens on $PORT in time', async () => {
    const session = await sandbox.open(appId('silent'), { egress: null });
    await session.writeFiles(silentApp());
    const started = Date.now();
    const failure = await session.start().then(
      () => null,
      (error: Error) => error,
    );
    expect(failure, 'start should reject').to.be.instanceOf(Error);
    expect(failure!.message).to.contain('still warming up');
    expect(Date.now() - started).to.be.lessThan(15_000);
    expect(await session.isListening()).to.equal(false);
  });

  it('isListening turns false once the server process dies', async () => {
    const session = await served(nodeApp('mortal'));
    expect(await session.isListening()).to.equal(true);
    await callFn(session, 'exit');
    expect(await eventually(async () => !(await session.isListening()))).to.equal(true);
  });

  it('snapshot → broken files → restore serves the snapshot again', async () => {
    const session = await served(nodeApp('rung-one'));
    const snapshotId = await session.snapshot();
    await session.writeFiles(brokenApp());
    await session.start().then(
      () => expect.fail('a broken server should not start'),
      () => undefined,
    );
    if (sideBySide) {
      // The failed start never replaced the server that was serving.
      expect(await session.isListening()).to.equal(true);
      expect((await callFn<EchoBody>(session, 'echo')).label).to.equal('rung-one');
    } else expect(await session.isListening()).to.equal(false);
    await session.restore(snapshotId);
    expect(await session.isListening()).to.equal(true);
    expect((await callFn<EchoBody>(session, 'echo')).label).to.equal('rung-one');
  });

  if (sideBySide) {
    it('a new version starts beside the one serving: under steady requests, five changes and a failed one fail none of them', async () => {
      const session = await served(nodeApp('v0'));
      let stop = false;
      const labels = new Set<string>();
      const failures: string[] = [];
      const load = async () => {
        while (!stop) {
          try {
            labels.add((await callFn<EchoBody>(session, 'echo')).label);
          } catch (error) {
            failures.push(String(error));
          }
        }
      };
      const clients = [load(), load(), load()];
      for (let version = 1; version <= 5; version++) {
        await session.writeFiles(nodeApp(`v${version}`));
        await session.start();
        if (version === 3) {
          await session.writeFiles(brokenApp());
          await session.start().then(
            () => expect.fail('a broken server should not start'),
            () => undefined,
          );
        }
      }
      expect(await eventually(() => labels.has('v5'))).to.equal(true);
      stop = true;
      await Promise.all(clients);
      expect(failures).to.deep.equal([]);
      expect([...labels]).to.include.members(['v0', 'v5']);
      expect((await callFn<EchoBody>(session, 'echo')).label).to.equal('v5');
    });
  }

  if (sideBySide) {
    it('revive, asked while a new version starts, leaves the new version serving; on a server that is down it restores', async function () {
      const session = await served(nodeApp('v1'));
      if (!session.revive) return this.skip(); // the adapter restores outright
      const v1 = await session.snapshot();
      await session.writeFiles(nodeApp('v2'));
      // A request that read the app before the change found no server and asks for v1 back, while v2 starts.
      const starting = session.start();
      const reviving = session.revive!(v1);
      await Promise.all([starting, reviving]);
      expect((await callFn<EchoBody>(session, 'echo')).label).to.equal('v2');

      await session.close();
      const reopened = await sandbox.open(session.id, { egress: null });
      expect(await reopened.isListening()).to.equal(false);
      await reopened.revive!(v1);
      expect((await callFn<EchoBody>(reopened, 'echo')).label).to.equal('v1');
    });
  }

  it('restore of a snapshot the sandbox does not hold fails and leaves the server serving', async () => {
    const session = await served(nodeApp('steady'));
    await session.restore('snp_01ARZ3NDEKTSV4RRFFQ69G5FAV').then(
      () => expect.fail('restore should fail'),
      () => undefined,
    );
    expect((await callFn<EchoBody>(session, 'echo')).label).to.equal('steady');
  });

  it("keeps two apps apart: each serves its own files, neither sees the other's", async () => {
    const first = await served([...nodeApp('first'), { path: '/app/data/secret.txt', content: 'only first' }]);
    const second = await served(nodeApp('second'));
    expect(first.id).to.not.equal(second.id);
    expect((await callFn<EchoBody>(first, 'echo')).label).to.equal('first');
    expect((await callFn<EchoBody>(second, 'echo')).label).to.equal('second');
    expect(await callFn(first, 'read', { file: 'data/secret.txt' })).to.deep.equal({ text: 'only first' });
    expect(await callFn(second, 'read', { file: 'data/secret.txt' })).to.deep.equal({ error: 'ENOENT' });
  });

  it('reopening an app reaches the same sandbox: same id, same files', async () => {
    const id = appId('reopen');
    const session = await served(nodeApp('kept'), null, id);
    await session.close();
    const again = await sandbox.open(id, { egress: null });
    expect(again.id).to.equal(session.id);
    await again.start();
    expect((await callFn<EchoBody>(again, 'echo')).label).to.equal('kept');
  });

  it('discard removes files and snapshots for good: reopening starts from nothing, and its snapshots no longer restore', async () => {
    const id = appId('discarded');
    const session = await served([...nodeApp('doomed'), { path: '/app/data/secret.txt', content: 'kept nowhere' }], null, id);
    const snapshotId = await session.snapshot();
    await session.discard();
    const again = await sandbox.open(id, { egress: null });
    await again.start().then(
      () => expect.fail('a sandbox that was discarded has no server to start'),
      () => undefined,
    );
    await again.writeFiles(nodeApp('fresh'));
    await again.start();
    expect(await callFn(again, 'read', { file: 'data/secret.txt' })).to.deep.equal({ error: 'ENOENT' });
    await again.restore(snapshotId).then(
      () => expect.fail('a snapshot of a discarded sandbox should not restore'),
      () => undefined,
    );
    expect((await callFn<EchoBody>(again, 'echo')).label).to.equal('fresh');
  });

  it('refuses file paths outside /app', async () => {
    const session = await sandbox.open(appId('paths'), { egress: null });
    for (const path of ['/etc/passwd', '/app/../etc/passwd', 'app/server.js', '/app/']) {
      await session.writeFiles([{ path, content: 'x' }]).then(
        () => expect.fail(`${path} should be refused`),
        (error: Error) => expect(error.message).to.match(/\/app/),
      );
    }
  });

  it('hands a redirect back to the caller instead of following it', async () => {
    const session = await served(nodeApp('redirecting'));
    const response = await session.fetch('/redirect');
    expect(response.status).to.equal(302);
    expect(response.headers.get('location')).to.equal('http://example.invalid/elsewhere');
  });

  describe('egress', () => {
    for (const [kind, files] of [
      ['a Node server', nodeApp('egress')],
      ['a start.sh app', startShApp('egress')],
    ] as const) {
      it(`with a domain policy, ${kind} reaches allowed domains and nothing else: raw IPs are refused`, async () => {
        const session = await served(files, { allowDomains: [ALLOWED_DOMAIN] });
        const port = upstreamPort();
        const allowed = await callFn<EgressAnswer>(session, 'fetch', { url: `http://${ALLOWED_DOMAIN}:${port}/x` });
        expect(allowed.text).to.equal(`upstream saw ${ALLOWED_DOMAIN}:${port}`);
        const subdomain = await callFn<EgressAnswer>(session, 'http-get', { url: `http://api.${ALLOWED_DOMAIN}:${port}/x` });
        expect(subdomain.text).to.equal(`upstream saw api.${ALLOWED_DOMAIN}:${port}`);
        for (const url of [`http://127.0.0.1:${port}/x`, `http://localhost:${port}/x`]) {
          for (const fn of ['fetch', 'http-get']) {
            const refused = await callFn<EgressAnswer>(session, fn, { url });
            expect(refused.text, `${fn} ${url} should be refused`).to.equal(undefined);
            expect(refused.error, `${fn} ${url}`).to.be.a('string');
          }
        }
      });

      it(`without a policy, ${kind} is unrestricted: raw IPs and domains both work`, async () => {
        const session = await served(files, null);
        const port = upstreamPort();
        for (const url of [`http://127.0.0.1:${port}/x`, `http://localhost:${port}/x`]) {
          const answer = await callFn<EgressAnswer>(session, 'fetch', { url });
          expect(answer.text, url).to.equal(`upstream saw ${new URL(url).host}`);
        }
      });
    }

    it('a policy given on reopen applies to the restarted server', async () => {
      const id = appId('tightened');
      const port = upstreamPort();
      const open = await served(nodeApp('tightened'), null, id);
      expect((await callFn<EgressAnswer>(open, 'fetch', { url: `http://127.0.0.1:${port}/` })).text).to.be.a('string');
      const tightened = await sandbox.open(id, { egress: { allowDomains: [ALLOWED_DOMAIN] } });
      await tightened.start();
      expect((await callFn<EgressAnswer>(tightened, 'fetch', { url: `http://127.0.0.1:${port}/` })).error).to.be.a('string');
      expect((await callFn<EgressAnswer>(tightened, 'fetch', { url: `http://${ALLOWED_DOMAIN}:${port}/` })).text).to.be.a('string');
    });

    it('refuses a policy that lists an address instead of a domain', async () => {
      await sandbox.open(appId('bad-policy'), { egress: { allowDomains: ['127.0.0.1'] } }).then(
        () => expect.fail('an address in the allow-list should be refused'),
        (error: Error) => expect(error.message).to.contain('domain names only'),
      );
    });
  });
}
