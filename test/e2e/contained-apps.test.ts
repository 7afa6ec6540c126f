import { expect } from 'chai';
import { mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devHost } from '../support/dev-host-fixture.js';
import { tinyDocument } from '../support/apps-documents.js';
import type { Part } from '../support/turn-client.js';
import { ZipAppArchive } from '../../adapters/apps/zip-app-archive.js';
import { bubblewrapSupport } from '../../adapters/sandbox/local/bubblewrap-command.js';
import { LocalSandbox } from '../../adapters/sandbox/local/local-sandbox.js';
import { processTree } from '../support/process-tree.js';
import { servedApp } from '../support/served-app.js';
import type { AppDocument } from '../../domain/apps/app-document.js';
import { eventually, processAlive } from '../support/sandbox-apps.js';

/**
 * A hostile app: `POST /fn/probe {files, wire}` tries to read each file, reads its environment and
 * /proc/1, and calls Porter's wire on the host's loopback as another person — through fetch (the
 * sandbox's proxy) and from a child with no proxy settings at all. It answers what it got.
 */
const HOSTILE_SERVER = `
const http = require('node:http');
const fs = require('node:fs');
const { execFileSync } = require('node:child_process');
const attempt = (f) => { try { return f(); } catch (error) { return 'ERR ' + (error.code || error.message); } };
http.createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', async () => {
    const input = body ? JSON.parse(body) : {};
    const files = Object.fromEntries((input.files || []).map((file) => [file, attempt(() => fs.readFileSync(file, 'utf8'))]));
    const asBob = { headers: { 'x-demo-user': 'bob' } };
    const viaFetch = await fetch(input.wire, asBob).then((r) => r.text(), (e) => 'ERR ' + ((e.cause && e.cause.message) || e.message));
    const script = 'fetch(process.argv[1], { headers: { "x-demo-user": "bob" } }).then((r) => r.text()).then(console.log, (e) => console.log("ERR " + ((e.cause && e.cause.code) || e.message)))';
    const viaChild = attempt(() => execFileSync(process.execPath, ['-e', script, input.wire], { env: {}, encoding: 'utf8', timeout: 5000 }).trim());
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ files, env: process.env, init: attempt(() => fs.readFileSync('/proc/1/cmdline', 'utf8')), viaFetch, viaChild, uid: process.getuid() }));
  });
}).listen(Number(process.env.PORT), process.env.HOST);
`;

const hostileDocument = (): AppDocument => ({
  ...tinyDocument(),
  title: 'Innocent notes',
  server: { files: { 'server.js': HOSTILE_SERVER } },
});
const appFile = (document: AppDocument) => Buffer.from(new ZipAppArchive().pack(document));

describe('Served apps contained on the development host', function () {
  this.timeout(60_000);
  let folder: string;
  let host: Awaited<ReturnType<typeof devHost>>;
  const secretOfTheHost = 'porter-secret-of-the-host-0123456789abcdef';

  before(async function () {
    if (!bubblewrapSupport().available) this.skip();
    // A host laid out as `npm start` lays it out: .porter/secret, .porter/porter.db, .porter/sandboxes.
    folder = await realpath(await mkdtemp(join(tmpdir(), 'porter-contained-e2e-')));
    await mkdir(join(folder, '.porter'));
    await writeFile(join(folder, '.porter', 'secret'), secretOfTheHost);
    process.env.PORTER_SECRET = secretOfTheHost;
    host = await devHost({
      env: {
        PORTER_SECRET: secretOfTheHost,
        PORTER_DATABASE_URL: `sqlite:${join(folder, '.porter', 'porter.db')}`,
        PORTER_SANDBOX_ROOT: join(folder, '.porter', 'sandboxes'),
      },
    });
  });
  after(async () => {
    delete process.env.PORTER_SECRET;
    await host?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  /** A request as a visitor who never signed in: the anonymous cookie the first answer set. */
  async function anonymousVisitor(): Promise<{ cookie: string; appId: string }> {
    const first = await fetch(`${host.client.base}/apps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'journal' }),
    });
    expect(first.status).to.equal(201);
    const cookie = first.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    return { cookie, appId: ((await first.json()) as Part).id as string };
  }

  it('an anonymous visitor cannot graduate an app: 403 forbidden, and the app stays a tree', async () => {
    const { cookie, appId } = await anonymousVisitor();
    const graduate = await fetch(`${host.client.base}/apps/${appId}/graduate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: '{}',
    });
    expect(graduate.status).to.equal(403);
    const refusal = (await graduate.json()) as { error: { code: string; message: string; details: unknown } };
    expect(refusal.error.code).to.equal('forbidden');
    expect(refusal.error.message).to.contain('Sign in');
    expect(refusal.error.details).to.deep.equal({ reason: 'sign-in-required' });
    expect(((await (await fetch(`${host.client.base}/apps/${appId}`, { headers: { cookie } })).json()) as Part).ui).to.equal('tree');
  });

  it('an anonymous visitor cannot import server code (403), but may import an app without it', async () => {
    const { cookie } = await anonymousVisitor();
    const send = (document: AppDocument) =>
      fetch(`${host.client.base}/apps/import`, {
        method: 'POST',
        headers: { 'content-type': 'application/vnd.porter.app', cookie },
        body: appFile(document),
      });
    const hostile = await send(hostileDocument());
    expect(hostile.status).to.equal(403);
    expect(((await hostile.json()) as { error: { code: string } }).error.code).to.equal('forbidden');
    const startScript = await send({ ...tinyDocument(), server: { files: { 'start.sh': '#!/bin/sh\nexec node -e "1"\n' } } });
    expect(startScript.status).to.equal(403);
    expect((await send(tinyDocument())).status).to.equal(201);
    const listed = (await (await fetch(`${host.client.base}/apps`, { headers: { cookie } })).json()) as { apps: Part[] };
    expect(listed.apps.map((app) => app.title)).to.not.include('Innocent notes');
  });

  it("a graduated app's server code reads none of the host's secret, database, /etc/passwd, environment or processes, and cannot call the wire as another person", async () => {
    const ada = host.client.as('ada');
    const bob = host.client.as('bob');
    const bobs = (await bob.json('POST', '/apps', { prompt: "bob's diary" })).body.id as string;
    const imported = await fetch(`${ada.base}/apps/import`, {
      method: 'POST',
      headers: { ...ada.headers, 'content-type': 'application/vnd.porter.app' },
      body: appFile(hostileDocument()),
    });
    expect(imported.status).to.equal(201);
    const app = (await imported.json()) as Part;
    const graduated = await ada.json('POST', `/apps/${app.id}/graduate`, {});
    expect(graduated.status, JSON.stringify(graduated.body)).to.equal(200);

    const database = join(folder, '.porter', 'porter.db');
    expect((await stat(database)).size, 'the database is a real file on the host').to.be.greaterThan(0);
    const hostRoot = (await readFile('/etc/passwd', 'utf8')).split('\n').find((line) => line.startsWith('root:'))!;
    const wire = `${host.client.base}/apps`;
    // Bob's apps as the wire shows them to anyone who says x-demo-user: bob from the host's loopback.
    expect(await (await fetch(wire, { headers: { 'x-demo-user': 'bob' } })).text()).to.contain(bobs);

    const probe = await ada.json('POST', `/apps/${app.id}/fn/probe`, {
      files: [join(folder, '.porter', 'secret'), database, '/etc/passwd', join(process.cwd(), 'package.json')],
      wire,
    });
    expect(probe.status, JSON.stringify(probe.body)).to.equal(200);
    const seen = probe.body as {
      files: Record<string, string>;
      env: Record<string, string>;
      init: string;
      viaFetch: string;
      viaChild: string;
      uid: number;
    };
    expect(seen.files[join(folder, '.porter', 'secret')]).to.equal('ERR ENOENT');
    expect(seen.files[database]).to.equal('ERR ENOENT');
    expect(seen.files[join(process.cwd(), 'package.json')]).to.equal('ERR ENOENT');
    expect(seen.files['/etc/passwd']).to.not.contain(hostRoot);
    expect(seen.files['/etc/passwd']).to.not.match(/^root:/m);
    expect(JSON.stringify(seen.env)).to.not.contain(secretOfTheHost);
    expect(Object.keys(seen.env)).to.not.include('PORTER_SECRET');
    expect(seen.init).to.not.equal(await readFile('/proc/1/cmdline', 'utf8'));
    expect(seen.uid).to.equal(65534);
    expect(seen.viaFetch).to.not.contain(bobs);
    expect(seen.viaFetch).to.contain('egress refused');
    expect(seen.viaChild).to.match(/^ERR /);
    expect(seen.viaChild).to.not.contain(bobs);
  });
});

describe('Served app servers stopped when idle and at shutdown, on the development host', function () {
  this.timeout(60_000);

  const PID_SERVER = `require('node:http').createServer((q, r) => r.end(JSON.stringify({ at: Date.now() }))).listen(Number(process.env.PORT), process.env.HOST);`;

  it('an idle server is stopped, the next request starts it again transparently, and closing Porter leaves no process behind', async function () {
    if (!bubblewrapSupport().available) this.skip();
    const root = await mkdtemp(join(tmpdir(), 'porter-idle-e2e-'));
    // Idle after 3 s: long enough that the server a request just started is still there when looked at on a busy machine.
    const sandbox = new LocalSandbox({ root, limits: { idleMs: 3000 } });
    const host = await devHost({ porter: { sandbox } });
    let closed = false;
    try {
      const ada = host.client.as('ada');
      const app = { id: await servedApp(ada, PID_SERVER) };
      expect((await ada.json('POST', `/apps/${app.id}/fn/hello`, {})).status).to.equal(200);
      const session = await sandbox.open(app.id, { egress: null });
      const first = await processTree(session.sandboxPid!);
      // Stopped once idle: every process of its sandbox goes.
      expect(await eventually(() => session.sandboxPid === undefined && first.every((pid) => !processAlive(pid)), 20_000)).to.equal(true);
      const again = await ada.json('POST', `/apps/${app.id}/fn/hello`, {});
      expect(again.status, JSON.stringify(again.body)).to.equal(200);
      const second = await processTree(session.sandboxPid!);
      expect(second[0]).to.not.equal(first[0]);
      expect(second.every(processAlive)).to.equal(true);
      await host.close();
      closed = true;
      expect(await eventually(() => second.every((pid) => !processAlive(pid)))).to.equal(true);
    } finally {
      if (!closed) await host.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});
