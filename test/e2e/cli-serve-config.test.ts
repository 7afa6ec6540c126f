import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../support/http-server.js';
import { scratchFolder } from '../support/scratch-folder.js';

const BIN = fileURLToPath(new URL('../../bin/porter.js', import.meta.url));
const SECRET = 'a-production-secret-for-the-tests-0123456789';

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A clean environment: only what the test gives, so the machine's own variables cannot leak in. */
const envOf = (env: NodeJS.ProcessEnv) => ({ PATH: process.env.PATH, HOME: process.env.HOME, ...env });

/**
 * `node bin/porter.js …` in `cwd`, to the end. A command that should have refused but starts
 * serving is killed the moment it says it listens (code null); a hang is the test's timeout.
 */
function porter(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: envOf(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (/ listening on /.test(stdout)) child.kill('SIGKILL');
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A `porter serve` that is listening: its URL, its output so far, and its exit. */
interface Serving {
  readonly url: string;
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  stdout(): string;
  stderr(): string;
  /** Resolves when stderr contains `text`. */
  saysOnStderr(text: string): Promise<void>;
}

function serve(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Serving> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { cwd, env: envOf(env) });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const waiters: Array<{ text: string; resolve: () => void }> = [];
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const waiter of [...waiters]) if (stderr.includes(waiter.text)) waiter.resolve();
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const found = /listening on (http:\/\/[^\s]+) /.exec(stdout);
      if (found) {
        resolve({
          url: found[1]!,
          child,
          exited,
          stdout: () => stdout,
          stderr: () => stderr,
          saysOnStderr: (text) =>
            stderr.includes(text) ? Promise.resolve() : new Promise((said) => waiters.push({ text, resolve: said })),
        });
      }
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code} before listening: ${stderr}`)));
  });
}

/**
 * A host's config module: a principal from the `x-user` header that takes `x-slow-ms` to answer
 * (and says on stderr when it starts), one read tool, and the MCP door under its own mount.
 */
const HOST_CONFIG = `
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export default (env) => ({
  mount: '/agent',
  databaseUrl: env.HOST_DATABASE ?? 'sqlite::memory:',
  logger: 'warn',
  principal: async (req) => {
    const slow = Number(req.headers['x-slow-ms'] ?? 0);
    if (slow) { process.stderr.write('slow request arrived\\n'); await wait(slow); }
    const user = req.headers['x-user'];
    return user ? { subject: String(user), kind: 'user' } : null;
  },
  tools: [{ name: 'notes_count', description: 'How many notes', inputSchema: { type: 'object', properties: {} }, risk: 'read', execute: async () => ({ count: 3 }) }],
  mcp: true,
  oauth: { principal: (subject) => ({ subject, kind: 'user' }) },
});
`;

describe("porter serve --config (a host's own Porter)", function () {
  this.timeout(180_000);
  let folder: string;
  let running: Serving | null = null;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'porter-serve-config-'));
  });
  afterEach(async () => {
    running?.child.kill('SIGKILL');
    running = null;
    await rm(folder, { recursive: true, force: true });
  });

  it("serves exactly the module's options: its mount, its principal, the discovery documents; no chrome unless asked", async () => {
    const config = join(folder, 'host.config.mjs');
    await writeFile(config, HOST_CONFIG);
    running = await serve(['--config', config, '--port', '0'], { PORTER_SECRET: SECRET }, folder);
    expect(running.stdout()).to.match(
      /^Porter production host listening on http:\/\/127\.0\.0\.1:\d+ \(wire at http:\/\/127\.0\.0\.1:\d+\/agent\)/,
    );
    await running.saysOnStderr('only this machine can connect; in a container pass --host 0.0.0.0');
    expect(running.stderr()).to.contain(`starting Porter from ${config}`);

    const status = await fetch(`${running.url}/agent/status`, { headers: { 'x-user': 'ada' } });
    expect(status.status).to.equal(200);
    // Idle connections outlive a balancer's 60 s, so the balancer never reuses one Porter closed.
    expect(status.headers.get('keep-alive')).to.equal('timeout=65');
    expect((await status.json()).blocks).to.include({ mcp: 'local', store: 'sqlite' });
    const discovery = await fetch(`${running.url}/.well-known/oauth-protected-resource/agent/mcp`);
    expect(discovery.status).to.equal(200);
    expect((await discovery.json()).resource).to.equal(`${running.url}/agent/mcp`);
    // Nothing of the demo host: not its mount, not its chrome.
    for (const path of ['/api/porter/status', '/', '/dev/sign-in']) {
      const other = await fetch(`${running.url}${path}`);
      expect(other.status, path).to.equal(404);
      expect((await other.json()).error.code).to.equal('not-found');
    }
  });

  it('--chrome adds the shipped chrome at /, bound where --host says; a porter.config.ts in the working directory is found by itself', async () => {
    await writeFile(
      join(folder, 'porter.config.ts'),
      `const mount: string = '/agent';\nexport const options = { mount, databaseUrl: 'sqlite::memory:', logger: 'warn' as const };\n`,
    );
    running = await serve(['--port', '0', '--host', '0.0.0.0', '--chrome'], { PORTER_SECRET: SECRET }, folder);
    expect(running.stderr()).to.contain(`starting Porter from ${join(folder, 'porter.config.ts')}`);
    expect(running.stderr()).to.not.contain('only this machine can connect');
    const page = await fetch(`${running.url}/`);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.contain('text/html');
    expect(await page.text()).to.contain('/agent');
    expect((await fetch(`${running.url}/agent/status`)).status).to.equal(200);
    expect((await fetch(`${running.url}/nowhere`)).status).to.equal(404);
  });

  it('SIGTERM: new connections are refused, the request in flight finishes, Porter closes, exit 0', async () => {
    const config = join(folder, 'host.config.mjs');
    await writeFile(config, HOST_CONFIG);
    running = await serve(['--config', config, '--port', '0'], { PORTER_SECRET: SECRET }, folder);
    const inFlight = fetch(`${running.url}/agent/status`, { headers: { 'x-user': 'ada', 'x-slow-ms': '1500' } });
    await running.saysOnStderr('slow request arrived');
    running.child.kill('SIGTERM');
    await running.saysOnStderr('SIGTERM, stopping');
    // Refused, or reset by a listening socket that is closing: either way, not served.
    expect(
      await connect(running.url).then(
        () => 'connected',
        (error: NodeJS.ErrnoException) => error.code,
      ),
    ).to.be.oneOf(['ECONNREFUSED', 'ECONNRESET']);
    const answered = await inFlight;
    expect(answered.status).to.equal(200);
    expect(await running.exited).to.equal(0);
    expect(running.stderr()).to.contain('porter serve: stopped');
    running = null;
  });

  it('a second signal cuts a request that would outlast the grace, still exit 0', async () => {
    const config = join(folder, 'host.config.mjs');
    await writeFile(config, HOST_CONFIG);
    running = await serve(['--config', config, '--port', '0'], { PORTER_SECRET: SECRET }, folder);
    const inFlight = fetch(`${running.url}/agent/status`, { headers: { 'x-user': 'ada', 'x-slow-ms': '60000' } }).then(
      () => 'answered',
      () => 'cut',
    );
    await running.saysOnStderr('slow request arrived');
    running.child.kill('SIGTERM');
    await running.saysOnStderr('SIGTERM, stopping');
    running.child.kill('SIGINT');
    expect(await inFlight).to.equal('cut');
    expect(await running.exited).to.equal(0);
    running = null;
  });

  it('a database it cannot reach: the option, the variable, PostgreSQL and the host and port tried, exit 2', async () => {
    const config = join(folder, 'host.config.mjs');
    await writeFile(config, 'export default { logger: "silent" };\n');
    const port = await freePort();
    const ran = await porter(
      ['serve', '--config', config, '--port', '0'],
      { PORTER_SECRET: SECRET, PORTER_DATABASE_URL: `postgres://porter:hunter2@127.0.0.1:${port}/porter` },
      folder,
    );
    expect(ran.code).to.equal(2);
    expect(ran.stderr).to.contain(
      `databaseUrl (from PORTER_DATABASE_URL): could not connect to PostgreSQL at 127.0.0.1:${port} (ECONNREFUSED`,
    );
    expect(ran.stderr).to.not.contain('hunter2');
  });

  it('a module that exports nothing usable, or fails to import, is a clear error, exit 2', async () => {
    const empty = join(folder, 'empty.mjs');
    await writeFile(empty, 'export const port = 3000;\n');
    const nothing = await porter(['serve', '--config', empty], { PORTER_SECRET: SECRET }, folder);
    expect(nothing.code).to.equal(2);
    expect(nothing.stderr).to.contain(`porter serve: ${empty} exports neither a default export nor \`options\``);
    const broken = join(folder, 'broken.mjs');
    await writeFile(broken, 'throw new Error("ACME_KEY is not set");\n');
    const failed = await porter(['serve', '--config', broken], { PORTER_SECRET: SECRET }, folder);
    expect(failed.code).to.equal(2);
    expect(failed.stderr).to.contain(`could not load the config module ${broken}: Error: ACME_KEY is not set`);
    const invalid = join(folder, 'invalid.mjs');
    await writeFile(invalid, 'export default { maxSteps: 99 };\n');
    const refused = await porter(['serve', '--config', invalid], { PORTER_SECRET: SECRET }, folder);
    expect(refused.code).to.equal(2);
    expect(refused.stderr).to.contain('maxSteps:');
    const typo = join(folder, 'typo.mjs');
    await writeFile(typo, 'export default { maxStep: 4, sandbox: { kind: "local", contaiment: "none" } };\n');
    const misspelt = await porter(['serve', '--config', typo], { PORTER_SECRET: SECRET }, folder);
    expect(misspelt.code).to.equal(2);
    expect(misspelt.stderr).to.contain('porter serve: Invalid Porter configuration:');
    expect(misspelt.stderr).to.contain('  - maxStep: unknown option — did you mean `maxSteps`?');
    expect(misspelt.stderr).to.contain('  - sandbox.contaiment: unknown option — did you mean `sandbox.containment`?');
    expect((await porter(['serve', '--config', invalid, '--demo'], {}, folder)).stderr).to.contain(
      '--demo and --config exclude each other',
    );
  });
});

describe('production refuses to boot without PORTER_SECRET, and writes nothing', function () {
  this.timeout(180_000);
  const folder = scratchFolder('porter-no-secret-', { each: true });

  const production = { NODE_ENV: 'production' };
  const written = async () => (await readdir(folder.path(), { recursive: true })).sort();

  it('porter serve --config: the production composition names secret and PORTER_SECRET, exit 2', async () => {
    await writeFile(join(folder.path(), 'host.mjs'), 'export default { logger: "silent" };\n');
    // A config module is production unless it (or NODE_ENV=development) says otherwise.
    for (const env of [production, {}]) {
      const ran = await porter(['serve', '--config', 'host.mjs', '--port', '0'], env, folder.path());
      expect(ran.code, ran.stderr).to.equal(2);
      expect(ran.stderr).to.contain('secret: is required in production: set PORTER_SECRET');
    }
    // Nor does a module that asks for the development composition get a minted secret in production.
    await writeFile(join(folder.path(), 'dev.mjs'), 'export default { development: true, logger: "silent" };\n');
    const dev = await porter(['serve', '--config', 'dev.mjs', '--port', '0'], production, folder.path());
    expect(dev.code, dev.stderr).to.equal(2);
    expect(dev.stderr).to.contain('secret: is required when NODE_ENV=production');
    expect(await written()).to.deep.equal(['dev.mjs', 'host.mjs']);
  });

  it('porter serve without a config module: the demo host only with --demo, and then not without a secret', async () => {
    const bare = await porter(['serve', '--port', '0'], production, folder.path());
    expect(bare.code).to.equal(2);
    expect(bare.stderr).to.contain('no config module here').and.contain('--config <file>').and.contain('--demo');
    const demo = await porter(['serve', '--demo', '--port', '0'], production, folder.path());
    expect(demo.code, demo.stderr).to.equal(2);
    expect(demo.stderr).to.contain('secret: is required in production: set PORTER_SECRET');
    // Refused before anything: no demo webhook secret minted or printed, nothing started or bundled.
    expect(demo.stdout).to.equal('');
    expect(demo.stderr).to.not.contain('whsec_').and.not.contain('PORTER_WEBHOOK_DEMO_SECRET');
    expect(demo.stderr).to.not.contain('starting the development host').and.not.contain('bundling the chrome');
    expect(await written()).to.deep.equal([]);
  });

  it('porter sync', async () => {
    await writeFile(join(folder.path(), 'pins.json'), JSON.stringify({ slots: [] }));
    const ran = await porter(['sync', '--pins', 'pins.json'], production, folder.path());
    expect(ran.code, ran.stderr).to.equal(2);
    expect(ran.stderr).to.contain('secret: is required in production: set PORTER_SECRET');
    expect(await written()).to.deep.equal(['pins.json']);
  });

  it('the development demo host still mints .porter/secret (owner-only) for convenience', async () => {
    const running = await serve(['--demo', '--port', '0'], { PORTER_DATABASE_URL: 'sqlite::memory:' }, folder.path());
    try {
      expect(running.stdout()).to.contain('Porter development host listening');
      const secret = await stat(join(folder.path(), '.porter', 'secret'));
      expect(secret.mode & 0o777).to.equal(0o600);
    } finally {
      running.child.kill('SIGTERM');
      expect(await running.exited).to.equal(0);
    }
  });
});

/** Opens (and closes) a fresh TCP connection to the server: rejects while it takes none. */
function connect(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/agent/status`, { agent: false }, (res) => {
      res.resume();
      resolve();
    });
    req.on('error', reject);
    req.end();
  });
}
