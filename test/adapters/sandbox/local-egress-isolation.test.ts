import { expect } from 'chai';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalSandbox } from '../../../adapters/sandbox/local/local-sandbox.js';
import { namespaceSupport } from '../../../adapters/sandbox/local/network-namespace.js';
import type { SandboxSession } from '../../../ports/sandbox.js';
import { serve, type RunningServer } from '../../support/http-server.js';
import { ALLOWED_DOMAIN, testResolver } from './sandbox-behaviour.js';
import { serversOfKilledHost } from '../../support/local-sandbox-fixture.js';
import {
  callFn,
  crashingApp,
  eventually,
  FETCH_SCRIPT,
  nodeApp,
  processAlive,
  type EchoBody,
  type EgressAnswer,
  type SpawnAnswer,
} from '../../support/sandbox-apps.js';

const POLICY = { allowDomains: [ALLOWED_DOMAIN] };
const support = namespaceSupport();
const curl = ['/usr/bin/curl', '/usr/local/bin/curl', '/bin/curl'].find((path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
});

/** What a child the app spawns with a clean environment (no proxy variables, no preload) gets from a URL. */
const cleanNodeFetch = (session: SandboxSession, url: string) =>
  callFn<SpawnAnswer>(session, 'spawn', { command: 'node', args: ['-e', FETCH_SCRIPT, url] });

describe('LocalSandbox egress isolation (containment: none)', function () {
  this.timeout(30_000);
  let root: string;
  let upstream: RunningServer;
  let port: string;
  let sandbox: LocalSandbox;

  before(async () => {
    upstream = await serve((request, response) => response.end(`upstream saw ${request.headers.host}`));
    port = new URL(upstream.url).port;
  });
  after(() => upstream.close());
  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'porter-egress-isolation-')));
  });
  afterEach(async () => {
    await sandbox?.closeAll();
    await rm(root, { recursive: true, force: true });
  });

  async function served(egress: { allowDomains: string[] } | null, id = 'app_isolated'): Promise<SandboxSession> {
    const session = await sandbox.open(id, { egress });
    await session.writeFiles(nodeApp('isolated'));
    await session.start();
    return session;
  }

  describe('in a network namespace of its own (where this machine allows one)', () => {
    before(function () {
      if (!support.available) this.skip();
    });
    beforeEach(() => {
      sandbox = new LocalSandbox({ root, resolve: testResolver, startTimeoutMs: 5000, containment: 'none' });
    });

    it('says so: egressIsolation is namespace', () => {
      expect(sandbox.egressIsolation).to.equal('namespace');
    });

    it('with a policy, a child spawned with a clean environment reaches neither a raw IP nor a host outside the policy', async () => {
      const session = await served(POLICY);
      for (const url of [`http://127.0.0.1:${port}/x`, `http://localhost:${port}/x`, `http://[::1]:${port}/x`]) {
        const answer = await cleanNodeFetch(session, url);
        expect(answer.stdout, url).to.match(/^REFUSED /);
      }
      // The server itself, going through the proxy as before: allowed domains only.
      expect((await callFn<EgressAnswer>(session, 'fetch', { url: `http://${ALLOWED_DOMAIN}:${port}/x` })).text).to.equal(
        `upstream saw ${ALLOWED_DOMAIN}:${port}`,
      );
      expect((await callFn<EgressAnswer>(session, 'fetch', { url: `http://127.0.0.1:${port}/x` })).error).to.be.a('string');
    });

    it('with a policy, curl that ignores the proxy is refused, and curl through the proxy reaches only the allowed domain', async function () {
      if (!curl) this.skip();
      const session = await served(POLICY);
      const direct = await callFn<SpawnAnswer>(session, 'spawn', {
        command: curl,
        args: ['-sS', '--noproxy', '*', '--max-time', '3', `http://127.0.0.1:${port}/x`],
      });
      expect(direct.code, 'curl --noproxy to a raw IP').to.not.equal(0);
      expect(direct.stdout).to.equal('');
      const viaProxy = (url: string) =>
        callFn<SpawnAnswer>(session, 'spawn', {
          command: curl,
          args: ['-sS', '--max-time', '3', '-w', ' %{http_code}', url],
          env: 'inherit',
        });
      expect((await viaProxy(`http://${ALLOWED_DOMAIN}:${port}/x`)).stdout).to.equal(`upstream saw ${ALLOWED_DOMAIN}:${port} 200`);
      expect((await viaProxy(`http://localhost:${port}/x`)).stdout).to.match(/ 403$/);
      expect((await viaProxy(`http://127.0.0.1:${port}/x`)).stdout).to.match(/ 403$/);
    });

    it('without a policy, the app is on the host network as before: a clean child reaches the raw IP', async () => {
      const session = await served(null);
      const answer = await cleanNodeFetch(session, `http://127.0.0.1:${port}/x`);
      expect(answer.stdout.trim()).to.equal(`REACHED upstream saw 127.0.0.1:${port}`);
    });

    it('a policy gained on reopen moves the running server into a namespace; losing it moves it out', async () => {
      const open = await served(null, 'app_moved');
      expect((await cleanNodeFetch(open, `http://127.0.0.1:${port}/x`)).stdout).to.match(/^REACHED /);
      const fenced = await sandbox.open('app_moved', { egress: POLICY });
      expect((await cleanNodeFetch(fenced, `http://127.0.0.1:${port}/x`)).stdout).to.match(/^REFUSED /);
      const freed = await sandbox.open('app_moved', { egress: null });
      expect((await cleanNodeFetch(freed, `http://127.0.0.1:${port}/x`)).stdout).to.match(/^REACHED /);
    });

    it('keeps the other guarantees: a folder of its own, the $PORT Porter reaches it on, an environment of its own making', async () => {
      const session = await served(POLICY);
      const echo = await callFn<EchoBody>(session, 'echo');
      expect(echo.cwd.startsWith(join(root, '.run', 'app_isolated') + '/')).to.equal(true);
      expect(echo.home).to.equal(echo.cwd);
      expect(await session.isListening()).to.equal(true);
      expect(echo.envKeys).to.not.include('PORTER_TEST_HOST_SECRET');
      expect(echo.envKeys).to.include.members(['PORT', 'HTTP_PROXY', 'NODE_OPTIONS']);
      // The app listens on $PORT inside its namespace; the host's loopback has nothing there.
      expect(
        await fetch(`http://127.0.0.1:${echo.port}/`).then(
          (response) => response.status,
          () => 'unreachable',
        ),
      ).to.not.equal(200);
    });

    it('restore brings the snapshot back inside a namespace; a crash at boot still shows its output', async () => {
      const session = await served(POLICY);
      const snapshotId = await session.snapshot();
      await session.writeFiles(crashingApp());
      const failure = await session.start().then(
        () => null,
        (error: Error) => error,
      );
      expect(failure?.message).to.contain('boom: DATABASE_URL is not set');
      await session.restore(snapshotId);
      expect((await callFn<EchoBody>(session, 'echo')).label).to.equal('isolated');
      expect((await cleanNodeFetch(session, `http://127.0.0.1:${port}/x`)).stdout).to.match(/^REFUSED /);
    });

    it('isListening turns false once the namespaced server dies, and requests to it are refused', async () => {
      const session = await served(POLICY);
      await callFn(session, 'exit');
      expect(await eventually(async () => !(await session.isListening()))).to.equal(true);
      await session.fetch('/').then(
        () => expect.fail('a server that is gone answers nothing'),
        (error: { code?: string }) => expect(error.code).to.equal('conflict'),
      );
    });

    it('a host that dies without closing takes its namespaced servers with it (kill -9)', async () => {
      const left = await serversOfKilledHost(root, { containment: 'none' }, POLICY);
      expect(await eventually(() => left.every((pid) => !processAlive(pid)))).to.equal(true);
    });
  });

  describe('where no namespace can be made', () => {
    it('falls back to cooperative egress, warns once per boot, and still holds proxy-honouring code to the policy', async () => {
      const warnings: Array<{ message: string; fields?: Record<string, unknown> }> = [];
      const logger = { warn: (message: string, fields?: Record<string, unknown>) => warnings.push({ message, fields }) };
      const tools = { unshare: join(root, 'no-such-unshare') };
      sandbox = new LocalSandbox({ root, resolve: testResolver, startTimeoutMs: 5000, namespaceTools: tools, logger, containment: 'none' });
      expect(sandbox.egressIsolation).to.equal('cooperative');
      expect(warnings).to.have.length(1);
      expect(warnings[0]!.message).to.contain('cooperative');
      expect(String(warnings[0]!.fields?.reason)).to.contain('unshare');
      expect(new LocalSandbox({ root, namespaceTools: tools, logger, containment: 'none' }).egressIsolation).to.equal('cooperative');
      expect(warnings, 'one warning per boot').to.have.length(1);
      const session = await served(POLICY);
      expect((await callFn<EgressAnswer>(session, 'fetch', { url: `http://${ALLOWED_DOMAIN}:${port}/x` })).text).to.equal(
        `upstream saw ${ALLOWED_DOMAIN}:${port}`,
      );
      expect((await callFn<EgressAnswer>(session, 'fetch', { url: `http://127.0.0.1:${port}/x` })).error).to.contain('egress refused');
    });

    it('egressIsolation: cooperative is a choice too, and is not warned about', () => {
      const warnings: string[] = [];
      sandbox = new LocalSandbox({
        root,
        containment: 'none',
        egressIsolation: 'cooperative',
        logger: { warn: (message) => warnings.push(message) },
      });
      expect(sandbox.egressIsolation).to.equal('cooperative');
      expect(warnings).to.deep.equal([]);
    });
  });
});
