import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDevHost } from '../../composition/dev-host/dev-host.js';
import { freePort } from '../support/http-server.js';
import { hostPerTest } from '../support/host-per-test.js';
import { hostComponents } from '../support/apps-pins.js';
import { ScriptedLanguageModel } from '../../adapters/model/scripted-language-model.js';

const BIN = fileURLToPath(new URL('../../bin/porter.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SECRET = 'a-development-secret-for-the-tests-0123456789';
const hostEnv = { NODE_ENV: 'development', PORTER_DATABASE_URL: 'sqlite::memory:', PORTER_SECRET: SECRET };

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the built command as a CI would: `node bin/porter.js …` in a child process. A command still
 * running after `killAfterMs` (a server that should have refused to start) is killed: code null.
 */
function porter(args: string[], env: NodeJS.ProcessEnv = {}, killAfterMs?: number): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } });
    if (killAfterMs !== undefined) {
      const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      child.once('close', () => clearTimeout(timer));
    }
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the porter command (bin/porter.js)', function () {
  this.timeout(120_000);

  describe('usage', () => {
    it('--help lists the commands and the exit codes, exit 0', async () => {
      const ran = await porter(['--help']);
      expect(ran.code).to.equal(0);
      for (const word of ['serve', 'sync', 'doctor', 'Exit codes', '2  wrong usage']) expect(ran.stdout).to.contain(word);
    });

    it('each command has --help, exit 0', async () => {
      for (const name of ['serve', 'sync', 'doctor']) {
        const ran = await porter([name, '--help']);
        expect(ran.code, name).to.equal(0);
        expect(ran.stdout).to.contain(`Usage: porter ${name}`);
      }
    });

    it('no command, an unknown command or an unknown option is a usage error, exit 2', async () => {
      expect((await porter([])).code).to.equal(2);
      const unknown = await porter(['deploy']);
      expect(unknown.code).to.equal(2);
      expect(unknown.stderr).to.contain('unknown command "deploy"');
      const option = await porter(['doctor', '--bogus']);
      expect(option.code).to.equal(2);
      expect(option.stderr).to.contain('--bogus');
    });
  });

  describe('porter doctor', () => {
    const startHost = hostPerTest(hostEnv);

    it('against a host with PORTER_BASE_URL: every check passes (act-as only warns), exit 0; --strict makes the warning fail', async () => {
      const host = await startHost({ baseUrl: true });
      const ran = await porter(['doctor', host.url]);
      expect(ran.code, ran.stdout + ran.stderr).to.equal(0);
      expect(ran.stdout).to.match(/ok\s+wire\s+Porter \d/);
      expect(ran.stdout).to.match(/ok\s+base-url\s+PORTER_BASE_URL is set/);
      expect(ran.stdout).to.match(/ok\s+present\s+a present call reaches the host with the person's authorization and cookie/);
      expect(ran.stdout).to.match(/warn\s+act-as\s+no actAs preset/);
      // The development composition's ladder falls back to the offline scripted model.
      expect(ran.stdout).to.match(/ok\s+model\s+turns are answered by a model the model ladder picked/);
      expect(ran.stderr).to.contain(`checking ${host.url}/api/porter`);
      expect((await porter(['doctor', host.url, '--strict'])).code).to.equal(1);
    });

    it('against a host without PORTER_BASE_URL: base-url fails with the fix, present is skipped, exit 1', async () => {
      const host = await startHost();
      const ran = await porter(['doctor'], { PORTER_URL: host.url });
      expect(ran.code).to.equal(1);
      expect(ran.stdout).to.match(/FAIL\s+base-url\s+PORTER_BASE_URL is not set/);
      expect(ran.stdout).to.contain(`fix: Set PORTER_BASE_URL to the origin that serves this host, e.g. PORTER_BASE_URL=${host.url}`);
      expect(ran.stdout).to.match(/skip\s+present\s+not checked: forwarding is off without PORTER_BASE_URL/);
      expect(ran.stdout).to.contain('1 failed');
    });

    it('against a production host: present and act-as are skipped (404 there), and --json is machine-readable', async () => {
      const host = await startHost({ env: { NODE_ENV: 'production' } });
      const ran = await porter(['doctor', `${host.url}/api/porter`, '--json']);
      expect(ran.code).to.equal(1);
      const report = JSON.parse(ran.stdout);
      expect(report).to.deep.include({ url: `${host.url}/api/porter`, reached: true, ok: false });
      const statuses = Object.fromEntries(report.checks.map((c: { name: string; status: string }) => [c.name, c.status]));
      expect(statuses).to.deep.equal({
        wire: 'pass',
        'base-url': 'fail',
        model: 'fail',
        present: 'skip',
        'act-as': 'skip',
        connections: 'skip',
      });
    });

    it('against a production host the model ladder found nothing for: the model check fails with the fix, as a turn answers 501, exit 1', async () => {
      const host = await startHost({ baseUrl: true, env: { NODE_ENV: 'production' } });
      const ran = await porter(['doctor', host.url]);
      expect(ran.code, ran.stdout + ran.stderr).to.equal(1);
      expect(ran.stdout).to.not.match(/model ladder\)/);
      expect(ran.stdout).to.match(/FAIL\s+model\s+no model is configured: every turn answers 501 not-implemented/);
      expect(ran.stdout).to.contain(
        "fix: Set OPENAI_API_KEY, ANTHROPIC_API_KEY or PORTER_MODEL_URL in the host's environment (PORTER_MODEL names the model), or pass `model` to createPorter; then restart the host",
      );
      expect(ran.stdout).to.contain('1 failed');

      // What the check says is what a turn does on that host.
      const headers = { 'content-type': 'application/json', 'x-demo-user': 'ada' };
      const thread = await fetch(`${host.url}/api/porter/threads`, { method: 'POST', headers, body: '{}' });
      const { id } = (await thread.json()) as { id: string };
      const turn = await fetch(`${host.url}/api/porter/threads/${id}/turn`, { method: 'POST', headers, body: '{"message":"hi"}' });
      expect(turn.status).to.equal(501);
      expect(((await turn.json()) as { error: { code: string } }).error.code).to.equal('not-implemented');
    });

    it("against a production host given the host's own model: the model check passes", async () => {
      const host = await startHost({ baseUrl: true, env: { NODE_ENV: 'production' }, porter: { model: new ScriptedLanguageModel() } });
      const ran = await porter(['doctor', host.url]);
      expect(ran.code, ran.stdout + ran.stderr).to.equal(0);
      expect(ran.stdout).to.match(/ok\s+model\s+turns are answered by the host's own model/);
    });

    it('a host whose principal resolver throws: Porter answers, /status fails with a fix, the doctor checks still run, exit 1', async () => {
      const principal = () => {
        throw new Error('the session store is down');
      };
      const host = await startHost({ baseUrl: true, porter: { principal } });
      const ran = await porter(['doctor', host.url]);
      expect(ran.code, ran.stdout + ran.stderr).to.equal(1);
      expect(ran.stdout).to.match(/FAIL\s+wire\s+Porter answers at .*, but GET \/api\/porter\/status failed with HTTP 500 \(internal/);
      expect(ran.stdout).to.contain("fix: Read the host's log for the cause: principal(req) must return a principal or null, never throw");
      // The doctor routes take no principal, so they still answer.
      expect(ran.stdout).to.match(/ok\s+base-url\s+PORTER_BASE_URL is set/);
      expect(ran.stdout).to.match(/ok\s+present\s+a present call reaches the host/);
      expect(ran.stdout).to.match(/skip\s+connections\s+not checked/);
    });

    it('a host that is not there, or a wrong mount, exit 2 with a fix', async () => {
      const port = await freePort();
      const nobody = await porter(['doctor', `http://127.0.0.1:${port}`]);
      expect(nobody.code).to.equal(2);
      expect(nobody.stderr).to.contain(`could not reach http://127.0.0.1:${port}`).and.contain('fix: Start the host');
      const host = await startHost();
      const mount = await porter(['doctor', host.url, '--mount', '/api/elsewhere']);
      expect(mount.code).to.equal(2);
      expect(mount.stderr).to.contain('does not answer at /api/elsewhere/status').and.contain('--mount');
    });
  });

  describe('porter serve', () => {
    let child: ChildProcess | null = null;
    afterEach(() => {
      child?.kill('SIGKILL');
      child = null;
    });

    it('starts the development host, says where it listens, answers the wire, and stops cleanly on SIGTERM (exit 0)', async () => {
      const folder = await mkdtemp(join(tmpdir(), 'porter-serve-'));
      try {
        child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--database', `sqlite:${join(folder, 'serve.db')}`], {
          cwd: ROOT,
          env: {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            NODE_ENV: 'development',
            PORTER_SECRET: SECRET,
            PORTER_WEBHOOK_DEMO_SECRET: `whsec_${Buffer.from('a'.repeat(32)).toString('base64')}`,
          },
        });
        let stdout = '';
        let stderr = '';
        child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        const url = await new Promise<string>((resolve, reject) => {
          child!.stdout!.on('data', (chunk: Buffer) => {
            stdout += chunk.toString();
            const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
            if (found) resolve(found[1]!);
          });
          child!.on('close', (code) => reject(new Error(`serve exited early with ${code}: ${stderr}`)));
        });
        expect(stderr).to.contain('porter serve: starting the development host');
        const status = await fetch(`${url}/api/porter/status`);
        expect(status.status).to.equal(200);
        // No broker named: the development host runs its demo broker, so the Connections page works.
        expect((await status.json()).blocks).to.have.property('connections', 'cloud');
        const exited = new Promise<number | null>((resolve) => child!.on('close', resolve));
        child.kill('SIGTERM');
        expect(await exited).to.equal(0);
        child = null;
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    });

    it('a --port that is not digits is a usage error, exit 2 (never a random or hex-read port)', async () => {
      for (const port of ['', '0x50', '80.5', '-1', '65536']) {
        const ran = await porter(
          ['serve', '--port', port, '--database', 'sqlite::memory:'],
          { NODE_ENV: 'development', PORTER_SECRET: SECRET },
          15_000,
        );
        expect(ran.code, `--port "${port}": ${ran.stdout}`).to.equal(2);
        expect(ran.stderr).to.contain('--port');
      }
    });

    it('a port already in use is a clear usage error, exit 2', async () => {
      const host = await startDevHost({ port: 0, env: hostEnv, porter: { logger: 'silent' } });
      try {
        const port = new URL(host.url).port;
        const ran = await porter(['serve', '--port', port, '--database', 'sqlite::memory:'], {
          NODE_ENV: 'development',
          PORTER_SECRET: SECRET,
        });
        expect(ran.code).to.equal(2);
        expect(ran.stderr).to.contain(`port ${port} is already in use`);
      } finally {
        await host.close();
      }
    });
  });

  describe('porter sync', () => {
    it('without a pin manifest it says what to pass, exit 2', async () => {
      const ran = await porter(['sync'], { NODE_ENV: 'development' });
      expect(ran.code).to.equal(2);
      expect(ran.stderr).to.contain('pass --pins <manifest.json>');
    });

    it('reports the pins; after the host changes a component it lists the drifted fork, and --fail-on-drift exits 1', async () => {
      const components = await hostComponents();
      const database = `sqlite:${join(components.folder, 'porter.db')}`;
      try {
        const host = await startDevHost({
          port: 0,
          env: { ...hostEnv, PORTER_DATABASE_URL: database },
          porter: { logger: 'silent', pins: components.manifestFile },
        });
        let appId: string;
        try {
          const seeded = await fetch(`${host.url}/api/porter/apps/seed`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-demo-user': 'ada' },
            body: JSON.stringify({ slot: components.slot }),
          });
          expect(seeded.status).to.be.oneOf([200, 201]);
          appId = ((await seeded.json()) as { id: string }).id;
          expect(appId).to.match(/^app_/);
        } finally {
          await host.close();
        }
        const env = { NODE_ENV: 'development', PORTER_SECRET: SECRET };
        const clean = await porter(['sync', '--pins', components.manifestFile, '--database', database, '--fail-on-drift'], env);
        expect(clean.code, clean.stderr).to.equal(0);
        expect(clean.stdout).to.contain('1 slot(s)').and.contain('No fork has drifted.');
        expect(clean.stderr).to.contain('porter sync: re-hashing the pinned host components');

        await components.change('Pricing, revised');
        const drifted = await porter(['sync', '--pins', components.manifestFile, '--database', database, '--fail-on-drift'], env);
        expect(drifted.code, drifted.stderr).to.equal(1);
        expect(drifted.stdout).to.contain('Newly drifted forks (1)').and.contain(appId).and.contain(components.slot);

        const json = await porter(['sync', '--pins', components.manifestFile, '--database', database, '--json'], env);
        expect(json.code).to.equal(0);
        expect(JSON.parse(json.stdout).slots[0]).to.deep.include({ slot: components.slot, forks: 1, drifted: 1 });

        // --database names the store for this run, even when the host's config module names another.
        const config = join(components.folder, 'porter.config.mjs');
        await writeFile(
          config,
          `export default { databaseUrl: ${JSON.stringify(`sqlite:${join(components.folder, 'elsewhere.db')}`)} };\n`,
        );
        const flagged = await porter(
          ['sync', '--config', config, '--pins', components.manifestFile, '--database', database, '--json'],
          env,
        );
        expect(flagged.code, flagged.stderr).to.equal(0);
        expect(JSON.parse(flagged.stdout).slots[0]).to.deep.include({ slot: components.slot, forks: 1, drifted: 1 });
      } finally {
        await components.remove();
      }
    });
  });
});
