import { expect } from 'chai';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalSandbox } from '../../../adapters/sandbox/local/local-sandbox.js';
import { processTree } from '../../support/process-tree.js';
import { bubblewrapSupport } from '../../../adapters/sandbox/local/bubblewrap-command.js';
import { serve, type RunningServer } from '../../support/http-server.js';
import { testResolver } from './sandbox-behaviour.js';
import {
  callFn,
  eventually,
  FETCH_SCRIPT,
  nodeApp,
  processAlive,
  startShApp,
  type EchoBody,
  type EgressAnswer,
  type SpawnAnswer,
} from '../../support/sandbox-apps.js';

const read = (session: Parameters<typeof callFn>[0], file: string) => callFn<{ text?: string; error?: string }>(session, 'read', { file });

describe('LocalSandbox contained by bubblewrap', function () {
  this.timeout(30_000);
  const support = bubblewrapSupport();
  let root: string;
  let host: string;
  let sandbox: LocalSandbox;
  let wire: RunningServer;

  before(async function () {
    if (!support.available) this.skip();
    // A host folder as Porter keeps one: the secret and the database beside the sandboxes.
    host = await realpath(await mkdtemp(join(tmpdir(), 'porter-contained-host-')));
    await mkdir(join(host, '.porter'));
    await writeFile(join(host, '.porter', 'secret'), 'cookie-signing-secret-of-the-host');
    await writeFile(join(host, '.porter', 'porter.db'), "SQLite format 3\0 every person's threads");
    root = join(host, '.porter', 'sandboxes');
    // Porter's wire on the host's loopback, answering anyone who claims to be someone.
    wire = await serve((request, response) => response.end(`threads of ${request.headers['x-demo-user'] ?? 'nobody'}`));
  });
  after(async () => {
    await wire?.close();
    if (host) await rm(host, { recursive: true, force: true });
  });
  beforeEach(() => {
    sandbox = new LocalSandbox({ root, resolve: testResolver, startTimeoutMs: 5000 });
  });
  afterEach(() => sandbox.closeAll());

  async function served(id: string, files = nodeApp('contained'), egress: { allowDomains: string[] } | null = null) {
    const session = await sandbox.open(id, { egress, owner: 'person-a' });
    await session.writeFiles(files);
    await session.start();
    return session;
  }

  it('says so: containment bubblewrap, every app in a network namespace of its own', () => {
    expect(sandbox.containment).to.equal('bubblewrap');
    expect(sandbox.egressIsolation).to.equal('namespace');
    expect(sandbox.unavailable).to.equal(null);
  });

  it("runs the server at /app as an unprivileged user of its own, seeing none of the host's files", async () => {
    const session = await served('app_files');
    const echo = await callFn<EchoBody>(session, 'echo');
    expect(echo.cwd).to.equal('/app');
    expect(echo.home).to.equal('/app');
    const identity = await callFn<SpawnAnswer>(session, 'spawn', {
      command: 'node',
      args: ['-e', 'console.log(process.getuid(), process.getgid())'],
    });
    expect(identity.stdout.trim()).to.equal('65534 65534');
    for (const file of [
      join(host, '.porter', 'secret'),
      join(host, '.porter', 'porter.db'),
      join(root, 'app_files', 'server.js'),
      process.cwd(),
    ]) {
      expect((await read(session, file)).error, file).to.be.oneOf(['ENOENT', 'EISDIR']);
      expect((await read(session, file)).text, file).to.equal(undefined);
    }
    // The app's own files, and nothing else at the top but what Node needs.
    expect((await read(session, '/app/server.js')).text).to.contain('createServer');
    const top = await callFn<SpawnAnswer>(session, 'spawn', {
      command: 'node',
      args: ['-e', 'console.log(require("fs").readdirSync("/").sort().join(" "))'],
    });
    // Node's own install is there too when it lives outside /usr (read-only, nothing else beside it).
    const nodeTop = process.execPath.startsWith('/usr/') ? [] : [process.execPath.split('/')[1]!];
    for (const name of top.stdout.trim().split(' '))
      expect(['app', 'bin', 'dev', 'etc', 'lib', 'lib32', 'lib64', 'libx32', 'proc', 'run', 'sbin', 'tmp', 'usr', ...nodeTop]).to.include(
        name,
      );
  });

  it("sees a synthetic /etc/passwd, not the host's", async () => {
    const hostPasswd = await readFile('/etc/passwd', 'utf8');
    const rootLine = hostPasswd.split('\n').find((line) => line.startsWith('root:'))!;
    const session = await served('app_passwd');
    const passwd = (await read(session, '/etc/passwd')).text ?? '';
    expect(passwd).to.not.contain(rootLine);
    expect(passwd).to.not.match(/^root:/m);
    expect(passwd).to.equal('app:x:65534:65534:Porter app:/app:/bin/sh\n');
  });

  it("gets none of the host's environment: only PORT, the proxy variables and what Node needs", async () => {
    process.env.PORTER_SECRET = 'the-hosts-signing-secret-0123456789abcdef';
    try {
      const session = await served('app_env');
      const echo = await callFn<EchoBody>(session, 'echo');
      expect(echo.envKeys).to.not.include('PORTER_SECRET');
      expect(echo.envKeys).to.deep.equal(
        [
          'ALL_PROXY',
          'HOME',
          'HOST',
          'HTTPS_PROXY',
          'HTTP_PROXY',
          'LANG',
          'NODE_ENV',
          'NODE_OPTIONS',
          'NO_PROXY',
          'PATH',
          'PORT',
          'PORTER_EGRESS_PROXY',
          'PWD',
          'TMPDIR',
          'all_proxy',
          'http_proxy',
          'https_proxy',
          'no_proxy',
        ].sort(),
      );
      const environ = await callFn<SpawnAnswer>(session, 'spawn', {
        command: '/bin/sh',
        args: ['-c', 'cat /proc/*/environ 2>/dev/null | tr "\\0" "\\n" | grep -c PORTER_SECRET || true'],
      });
      expect(environ.stdout.trim()).to.equal('0');
    } finally {
      delete process.env.PORTER_SECRET;
    }
  });

  it("sees only its own processes: /proc/1 is not the host's init, and Porter's process is not there", async () => {
    const hostInit = await readFile('/proc/1/cmdline', 'utf8');
    const session = await served('app_procs', startShApp('procs'));
    const init = (await read(session, '/proc/1/cmdline')).text ?? '';
    expect(init).to.not.equal(hostInit);
    const listing = await callFn<SpawnAnswer>(session, 'spawn', {
      command: 'node',
      args: ['-e', 'console.log(require("fs").readdirSync("/proc").filter((n) => /^\\d+$/.test(n)).length)'],
    });
    // bwrap's init, the gate, the server, the helper start.sh left, and this child: a handful, not the host's.
    expect(Number(listing.stdout.trim())).to.be.lessThan(10);
    expect((await read(session, `/proc/${process.pid}/cmdline`)).text ?? '').to.not.contain('mocha');
  });

  it("cannot reach Porter's wire on the host's loopback, however it asks (network isolation), with or without a policy", async () => {
    const port = new URL(wire.url).port;
    // The system resolver, as in production (the suite's resolver lets loopback through on purpose).
    await sandbox.closeAll();
    sandbox = new LocalSandbox({ root, startTimeoutMs: 5000 });
    for (const egress of [null, { allowDomains: ['allowed.test'] }]) {
      const session = await served(`app_wire_${egress ? 'policy' : 'open'}`, nodeApp('wire'), egress);
      const direct = await callFn<SpawnAnswer>(session, 'spawn', {
        command: 'node',
        args: ['-e', FETCH_SCRIPT, `http://127.0.0.1:${port}/api/porter/threads`],
      });
      expect(direct.stdout, 'a clean child').to.match(/^REFUSED /);
      const proxied = await callFn<EgressAnswer>(session, 'fetch', { url: `http://127.0.0.1:${port}/api/porter/threads` });
      expect(proxied.text ?? '', 'through the proxy').to.not.contain('threads of');
      expect(proxied.error, 'through the proxy').to.contain('egress refused');
    }
  });

  it("cannot use up the host's descriptors: connections out beyond 256 at once are closed, and egress works again after", async () => {
    const session = await served('app_flood');
    const flood = `
      const net = require('node:net');
      const [host, port] = process.env.PORTER_EGRESS_PROXY.split(':');
      let open = 0, closed = 0;
      for (let i = 0; i < 400; i++) {
        const socket = net.connect(Number(port), host);
        socket.on('connect', () => open++);
        socket.on('error', () => undefined);
        socket.on('close', () => closed++);
      }
      // Told once every connection has opened and those past the cap are closed (or at 7 s, within the spawn's 8 s).
      const started = Date.now();
      setInterval(() => {
        if ((open === 400 && closed >= 400 - 256) || Date.now() - started > 7000) {
          console.log(JSON.stringify({ open, closed }));
          process.exit(0);
        }
      }, 50);`;
    const answer = await callFn<SpawnAnswer>(session, 'spawn', { command: 'node', args: ['-e', flood], env: 'inherit' });
    const { open, closed } = JSON.parse(answer.stdout) as { open: number; closed: number };
    expect(open).to.equal(400);
    expect(closed).to.be.at.least(400 - 256);
    expect(400 - closed).to.be.at.most(256);
    // Once they are gone, the app reaches out as before (this suite's resolver lets loopback through).
    const egress = await callFn<EgressAnswer>(session, 'fetch', { url: `http://127.0.0.1:${new URL(wire.url).port}/` });
    expect(egress.text).to.equal('threads of nobody');
  });

  it('runs start.sh contained too, and close leaves none of its processes behind', async () => {
    const session = await served('app_tree', startShApp('tree'));
    expect((await callFn<EchoBody>(session, 'echo')).startedBy).to.equal('start.sh');
    // bwrap and its init, the gate, the app's own bwrap, start.sh's node server and its helper.
    expect(await eventually(async () => (await processTree(session.sandboxPid!)).length >= 6)).to.equal(true);
    const members = await processTree(session.sandboxPid!);
    await session.close();
    expect(await eventually(() => members.every((pid) => !processAlive(pid)))).to.equal(true);
  });

  it('closeAll (Porter shutting down) stops every server: none of their processes is left', async () => {
    const sessions = await Promise.all(['app_all_1', 'app_all_2'].map((id) => served(id)));
    const members = (await Promise.all(sessions.map((session) => processTree(session.sandboxPid!)))).flat();
    expect(members.length).to.be.greaterThan(2);
    await sandbox.closeAll();
    for (const session of sessions) expect(await session.isListening()).to.equal(false);
    expect(await eventually(() => members.every((pid) => !processAlive(pid)))).to.equal(true);
    expect(sandbox.liveServers()).to.equal(0);
  });
});

describe('LocalSandbox where bubblewrap is missing', () => {
  it('fails closed: every open says to install bubblewrap (503), nothing runs uncontained', async () => {
    const root = await mkdtemp(join(tmpdir(), 'porter-no-bwrap-'));
    const warnings: string[] = [];
    try {
      const sandbox = new LocalSandbox({ root, bwrap: join(root, 'no-such-bwrap'), logger: { warn: (message) => warnings.push(message) } });
      expect(sandbox.unavailable).to.contain('install bubblewrap').and.to.contain("containment: 'none'");
      const refusal = await sandbox.open('app_refused', { egress: null }).then(
        () => null,
        (error: unknown) => error as { code: string; message: string },
      );
      expect(refusal?.code).to.equal('unavailable');
      expect(refusal?.message).to.contain('apt-get install bubblewrap');
      expect(warnings.join('\n')).to.contain('bubblewrap is unavailable');
      expect(sandbox.liveServers()).to.equal(0);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('LocalSandbox server caps and idle stop', function () {
  this.timeout(30_000);
  let root: string;
  let sandbox: LocalSandbox;
  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'porter-server-pool-')));
  });
  afterEach(async () => {
    await sandbox.closeAll();
    await rm(root, { recursive: true, force: true });
  });

  async function served(id: string, owner: string) {
    const session = await sandbox.open(id, { egress: null, owner });
    await session.writeFiles(nodeApp(id));
    await session.start();
    return session;
  }

  it("the (N+1)th server of one person stops that person's least recently used idle one, not anyone else's", async () => {
    sandbox = new LocalSandbox({ root, startTimeoutMs: 5000, limits: { maxServersPerPerson: 2, maxServers: 10 } });
    const other = await served('app_other', 'person-b');
    const first = await served('app_first', 'person-a');
    const second = await served('app_second', 'person-a');
    await callFn(first, 'echo'); // first is now more recently used than second
    const third = await served('app_third', 'person-a');
    expect(await second.isListening()).to.equal(false);
    for (const session of [first, third, other]) expect(await session.isListening()).to.equal(true);
    expect(sandbox.liveServers('person-a')).to.equal(2);
    expect(sandbox.liveServers()).to.equal(3);
  });

  it('the total cap stops the least recently used idle server of anyone', async () => {
    sandbox = new LocalSandbox({ root, startTimeoutMs: 5000, limits: { maxServersPerPerson: 5, maxServers: 2 } });
    const oldest = await served('app_oldest', 'person-a');
    const newer = await served('app_newer', 'person-b');
    await served('app_newest', 'person-c');
    expect(await oldest.isListening()).to.equal(false);
    expect(await newer.isListening()).to.equal(true);
    expect(sandbox.liveServers()).to.equal(2);
  });

  it('over the cap with every server busy, the start is refused 503 unavailable, naming the limit', async () => {
    sandbox = new LocalSandbox({ root, startTimeoutMs: 5000, limits: { maxServersPerPerson: 1, maxServers: 10 } });
    const busy = await sandbox.open('app_busy', { egress: null, owner: 'person-a' });
    await busy.writeFiles([
      {
        path: '/app/server.js',
        content:
          "require('node:http').createServer((q, r) => { if (q.url !== '/slow') return r.end('ok'); }).listen(Number(process.env.PORT), process.env.HOST);",
      },
    ]);
    await busy.start();
    const pending = busy.fetch('/slow').catch(() => null); // a request in flight: the server is busy
    const refused = await served('app_waiting', 'person-a').then(
      () => null,
      (error: unknown) => error as { code: string; details: unknown },
    );
    expect(refused?.code).to.equal('unavailable');
    expect(refused?.details).to.deep.equal({ reason: 'server-limit', limit: 'maxServersPerPerson', max: 1 });
    expect(await busy.isListening()).to.equal(true);
    await busy.close();
    await pending;
  });

  // Twenty apps in a second from one person: at most the cap run, however they race.
  it('concurrent starts of one person never exceed the cap', async () => {
    sandbox = new LocalSandbox({ root, startTimeoutMs: 10_000, limits: { maxServersPerPerson: 3, maxServers: 20 } });
    const ids = Array.from({ length: 6 }, (_, i) => `app_burst_${i}`);
    const sessions = await Promise.all(ids.map((id) => sandbox.open(id, { egress: null, owner: 'person-a' })));
    await Promise.all(sessions.map((session, i) => session.writeFiles(nodeApp(ids[i]!))));
    await Promise.allSettled(sessions.map((session) => session.start()));
    const listening = (await Promise.all(sessions.map((session) => session.isListening()))).filter(Boolean);
    expect(listening.length).to.be.at.most(3);
    expect(sandbox.liveServers('person-a')).to.be.at.most(3);
  });

  it('an idle server is stopped after the idle time, and a start on the next request brings it back', async () => {
    sandbox = new LocalSandbox({ root, startTimeoutMs: 5000, limits: { idleMs: 300 } });
    const session = await served('app_idle', 'person-a');
    const members = await processTree(session.sandboxPid!);
    expect(await eventually(async () => !(await session.isListening()))).to.equal(true);
    expect(await eventually(() => members.every((pid) => !processAlive(pid)))).to.equal(true);
    expect(sandbox.liveServers()).to.equal(0);
    await session.start();
    expect((await callFn<EchoBody>(session, 'echo')).label).to.equal('app_idle');
  });

  it('a server in use is not stopped as idle', async () => {
    sandbox = new LocalSandbox({ root, startTimeoutMs: 5000, limits: { idleMs: 1000 } });
    const session = await served('app_used', 'person-a');
    const until = Date.now() + 2000;
    while (Date.now() < until) {
      await callFn(session, 'echo');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await session.isListening()).to.equal(true);
  });
});
