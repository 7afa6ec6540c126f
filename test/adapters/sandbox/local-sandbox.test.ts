import { expect } from 'chai';
import { chmod, lstat, mkdtemp, readdir, readFile, realpath, rm, stat, symlink, mkdir } from 'node:fs/promises';
import { createServer as createHttpsServer } from 'node:https';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { selfSignedCertificate } from '../../support/self-signed.js';
import { LocalSandbox } from '../../../adapters/sandbox/local/local-sandbox.js';
import { behavesAsSandbox, testResolver } from './sandbox-behaviour.js';
import { serversOfKilledHost } from '../../support/local-sandbox-fixture.js';
import {
  callFn,
  eventually,
  nodeApp,
  processAlive,
  silentApp,
  startShApp,
  type EchoBody,
  type EgressAnswer,
} from '../../support/sandbox-apps.js';

describe('LocalSandbox (a child process per app)', () => {
  describe('through the Sandbox port', () => {
    let root: string;
    behavesAsSandbox(
      async (settings) => {
        root = await mkdtemp(join(tmpdir(), 'porter-local-sandbox-'));
        return {
          sandbox: new LocalSandbox({ root, resolve: settings.resolve, startTimeoutMs: settings.startTimeoutMs }),
          close: () => rm(root, { recursive: true, force: true }),
        };
      },
      { sideBySide: true },
    );
  });

  describe('uncontained (containment: none), through the Sandbox port', () => {
    let root: string;
    behavesAsSandbox(
      async (settings) => {
        root = await mkdtemp(join(tmpdir(), 'porter-local-sandbox-'));
        return {
          sandbox: new LocalSandbox({ root, resolve: settings.resolve, startTimeoutMs: settings.startTimeoutMs, containment: 'none' }),
          close: () => rm(root, { recursive: true, force: true }),
        };
      },
      { sideBySide: true },
    );
  });

  // How the plain child process behaves on the host (bubblewrap containment: local-containment.test.ts).
  describe('uncontained (containment: none), on this machine', () => {
    let root: string;
    let sandbox: LocalSandbox;
    beforeEach(async () => {
      root = await realpath(await mkdtemp(join(tmpdir(), 'porter-local-sandbox-')));
      // Room for a busy machine to boot a server; the start that must time out has its own, shorter.
      sandbox = new LocalSandbox({ root, resolve: testResolver, startTimeoutMs: 15_000, containment: 'none' });
    });
    afterEach(async () => {
      await sandbox.closeAll();
      await rm(root, { recursive: true, force: true });
    });

    it('reports status kind custom', () => {
      expect(sandbox.kind).to.equal('custom');
    });

    it("keeps /app's files at <root>/<appId> and runs each start from a copy of them under <root>/.run/<appId>", async () => {
      const session = await sandbox.open('app_mapped', { egress: null });
      await session.writeFiles([...nodeApp('mapped'), { path: '/app/public/index.html', content: '<h1>hi</h1>' }]);
      expect(await readFile(join(root, 'app_mapped', 'public', 'index.html'), 'utf8')).to.equal('<h1>hi</h1>');
      await session.start();
      const echo = await callFn<EchoBody>(session, 'echo');
      expect(echo.cwd.startsWith(join(root, '.run', 'app_mapped') + '/')).to.equal(true);
      expect(await readFile(join(echo.cwd, 'public', 'index.html'), 'utf8')).to.equal('<h1>hi</h1>');
      // What the server writes stays in its copy: the working tree is the host's alone.
      await callFn(session, 'spawn', { command: '/bin/sh', args: ['-c', 'echo scribbled > public/index.html'] });
      expect(await readFile(join(root, 'app_mapped', 'public', 'index.html'), 'utf8')).to.equal('<h1>hi</h1>');
    });

    it('gives two apps different directories, ports and environments', async () => {
      const first = await sandbox.open('app_one', { egress: null });
      const second = await sandbox.open('app_two', { egress: { allowDomains: ['allowed.test'] } });
      await first.writeFiles(nodeApp('one'));
      await second.writeFiles(nodeApp('two'));
      await Promise.all([first.start(), second.start()]);
      const [one, two] = await Promise.all([callFn<EchoBody>(first, 'echo'), callFn<EchoBody>(second, 'echo')]);
      expect(one.cwd).to.not.equal(two.cwd);
      expect(one.home).to.equal(one.cwd);
      expect(two.home).to.equal(two.cwd);
      expect(one.port).to.not.equal(two.port);
      expect(one.envKeys).to.not.include('PORTER_EGRESS_PROXY');
      expect(two.envKeys).to.include('PORTER_EGRESS_PROXY');
    });

    it('never passes the host environment (and its secrets) to the app', async () => {
      process.env.PORTER_TEST_HOST_SECRET = 'sk-host-secret';
      try {
        const session = await sandbox.open('app_env', { egress: null });
        await session.writeFiles(nodeApp('env'));
        await session.start();
        const echo = await callFn<EchoBody>(session, 'echo');
        expect(echo.envKeys).to.not.include('PORTER_TEST_HOST_SECRET');
        expect(echo.envKeys).to.deep.equal(['HOME', 'HOST', 'LANG', 'NODE_ENV', 'PATH', 'PORT', 'TMPDIR']);
      } finally {
        delete process.env.PORTER_TEST_HOST_SECRET;
      }
    });

    it('close kills the whole process tree, background children of start.sh included', async () => {
      const session = await sandbox.open('app_tree', { egress: null });
      await session.writeFiles(startShApp('tree'));
      await session.start();
      const helperFile = join(root, '.tmp', 'app_tree', 'helper.pid');
      expect(await eventually(async () => Boolean(await stat(helperFile).catch(() => null)))).to.equal(true);
      const helper = Number(await readFile(helperFile, 'utf8'));
      expect(processAlive(helper)).to.equal(true);
      const port = Number((await callFn<EchoBody>(session, 'echo')).port);
      await session.close();
      expect(await eventually(() => !processAlive(helper))).to.equal(true);
      expect(await session.isListening()).to.equal(false);
      expect(port).to.be.greaterThan(0);
    });

    it('a host that dies without closing takes its app servers with it (kill -9)', async () => {
      const left = await serversOfKilledHost(root, { containment: 'none' });
      expect(left.length).to.be.greaterThan(0);
      expect(await eventually(() => left.every((pid) => !processAlive(pid)))).to.equal(true);
    });

    it('discard stops the server and removes the app directory and its snapshots from the root', async () => {
      const session = await sandbox.open('app_gone', { egress: { allowDomains: ['allowed.test'] } });
      await session.writeFiles(startShApp('gone'));
      await session.start();
      await session.snapshot();
      const server = session.sandboxPid!;
      const helperFile = join(root, '.tmp', 'app_gone', 'helper.pid');
      expect(await eventually(async () => Boolean(await stat(helperFile).catch(() => null)))).to.equal(true);
      const helper = Number(await readFile(helperFile, 'utf8'));
      expect(await readdir(join(root, '.snapshots', 'app_gone'))).to.have.length(1);
      await session.discard();
      for (const place of ['app_gone', '.snapshots/app_gone', '.tmp/app_gone', '.run/app_gone']) {
        expect(await stat(join(root, place)).catch(() => null), place).to.equal(null);
      }
      expect(await eventually(() => !processAlive(server) && !processAlive(helper))).to.equal(true);
    });

    it('discard removes what the app locked itself out of (a directory with mode 000)', async () => {
      const session = await sandbox.open('app_locked', { egress: null });
      await session.writeFiles([{ path: '/app/vault/deep/secret.txt', content: 'x' }]);
      await chmod(join(root, 'app_locked', 'vault', 'deep'), 0o000);
      await chmod(join(root, 'app_locked', 'vault'), 0o000);
      await session.discard();
      expect(await stat(join(root, 'app_locked')).catch(() => null)).to.equal(null);
    });

    it('a start that times out leaves no process behind', async () => {
      const impatient = new LocalSandbox({ root, resolve: testResolver, startTimeoutMs: 2500, containment: 'none' });
      try {
        const session = await impatient.open('app_slow', { egress: null });
        await session.writeFiles(silentApp());
        await session.start().catch(() => undefined);
        const pid = Number(await readFile(join(root, '.tmp', 'app_slow', 'server.pid'), 'utf8'));
        expect(await eventually(() => !processAlive(pid))).to.equal(true);
      } finally {
        await impatient.closeAll();
      }
    });

    it('restarting stops the previous server once the new one serves', async () => {
      const session = await sandbox.open('app_restart', { egress: null });
      await session.writeFiles(nodeApp('v1'));
      await session.start();
      const before = Number((await callFn<EchoBody>(session, 'echo')).port);
      await session.writeFiles(nodeApp('v2'));
      await session.start();
      const after = await callFn<EchoBody>(session, 'echo');
      expect(after.label).to.equal('v2');
      expect(
        await eventually(
          async () =>
            !(await fetch(`http://127.0.0.1:${before}/`).then(
              () => true,
              () => false,
            )),
        ),
      ).to.equal(true);
    });

    it('closeAll stops every server it started', async () => {
      const sessions = await Promise.all(['app_a', 'app_b'].map((id) => sandbox.open(id, { egress: null })));
      for (const session of sessions) {
        await session.writeFiles(nodeApp('all'));
        await session.start();
      }
      await sandbox.closeAll();
      for (const session of sessions) expect(await session.isListening()).to.equal(false);
    });

    it('never writes through a link in its working tree (one an older Porter let an app plant): the link is replaced, not followed', async () => {
      const outside = join(root, 'outside');
      await mkdir(outside);
      const session = await sandbox.open('app_linked', { egress: null });
      await mkdir(join(root, 'app_linked'), { recursive: true });
      await symlink(outside, join(root, 'app_linked', 'data'));
      await symlink(join(outside, 'target.txt'), join(root, 'app_linked', 'file.txt'));
      await session.writeFiles([
        { path: '/app/data/new/file.txt', content: 'x' },
        { path: '/app/file.txt', content: 'y' },
      ]);
      expect(await readdir(outside)).to.deep.equal([]);
      expect(await readFile(join(root, 'app_linked', 'data', 'new', 'file.txt'), 'utf8')).to.equal('x');
      expect((await lstat(join(root, 'app_linked', 'data'))).isDirectory()).to.equal(true);
      expect((await lstat(join(root, 'app_linked', 'file.txt'))).isFile()).to.equal(true);
    });

    it('tells the server to bind loopback only (HOST=127.0.0.1)', async () => {
      const session = await sandbox.open('app_loopback', { egress: null });
      await session.writeFiles(nodeApp('loopback'));
      await session.start();
      const port = Number((await callFn<EchoBody>(session, 'echo')).port);
      const external = Object.values(networkInterfaces())
        .flat()
        .find((address) => address && address.family === 'IPv4' && !address.internal);
      if (external) {
        expect(
          await fetch(`http://${external.address}:${port}/`).then(
            () => 'answered',
            () => 'refused',
          ),
        ).to.equal('refused');
      }
      expect(await fetch(`http://127.0.0.1:${port}/`).then((response) => response.status)).to.equal(200);
    });

    it('refuses app ids that could name another directory', async () => {
      for (const id of ['../escape', '.snapshots', 'a/b', '']) {
        await sandbox.open(id, { egress: null }).then(
          () => expect.fail(`${JSON.stringify(id)} should be refused`),
          (error: Error) => expect(error.message).to.contain('app id'),
        );
      }
    });

    it('tunnels HTTPS to an allowed domain end to end (TLS inside the tunnel), and refuses it to a raw IP', async () => {
      const { key, cert } = await selfSignedCertificate(root, 'allowed.test');
      const upstream = createHttpsServer({ key, cert }, (request, response) => response.end(`secure upstream saw ${request.headers.host}`));
      await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
      const port = (upstream.address() as { port: number }).port;
      try {
        const session = await sandbox.open('app_tls', { egress: { allowDomains: ['allowed.test'] } });
        await session.writeFiles(nodeApp('tls'));
        await session.start();
        const allowed = await callFn<EgressAnswer>(session, 'https-get', { url: `https://allowed.test:${port}/`, ca: cert });
        expect(allowed.text).to.equal(`secure upstream saw allowed.test:${port}`);
        const raw = await callFn<EgressAnswer>(session, 'https-get', { url: `https://127.0.0.1:${port}/`, ca: cert });
        expect(raw.error).to.contain('egress refused');
      } finally {
        upstream.closeAllConnections();
        await new Promise<void>((resolve) => upstream.close(() => resolve()));
      }
    });

    it('defaults its root to .porter/sandboxes under the working directory', () => {
      expect(new LocalSandbox().root).to.equal(join(process.cwd(), '.porter', 'sandboxes'));
    });
  });
});
