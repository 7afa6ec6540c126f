import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../support/http-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** What `npm start` runs: `node --import tsx composition/dev-host/main.ts` (here from another working directory). */
const NODE = process.execPath;
const WITH_TSX = ['--import', import.meta.resolve('tsx')];
const MAIN = join(ROOT, 'composition', 'dev-host', 'main.ts');
const BIN = join(ROOT, 'bin', 'porter.js');
const SECRET = 'a-production-secret-for-the-tests-0123456789';

interface Started {
  readonly child: ChildProcess;
  /** The exit code, once the process ends. */
  readonly exited: Promise<number | null>;
  /** Resolves with the output so far once `text` was printed (stdout or stderr), or rejects at exit. */
  says(text: string): Promise<string>;
  output(): string;
}

function start(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Started {
  const child = spawn(command, args, { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  const heard = (chunk: Buffer) => (output += chunk.toString());
  child.stdout!.on('data', heard);
  child.stderr!.on('data', heard);
  return {
    child,
    exited,
    output: () => output,
    says: (text) =>
      new Promise((resolve, reject) => {
        const check = () => output.includes(text) && resolve(output);
        child.stdout!.on('data', check);
        child.stderr!.on('data', check);
        check();
        void exited.then((code) => reject(new Error(`exited (${code}) without saying "${text}":\n${output}`)));
      }),
  };
}

/** Whether anything answers on the port. */
async function answers(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/api/porter/status`);
    return true;
  } catch {
    return false;
  }
}

describe('Production posture of npm start (a spawned process)', function () {
  this.timeout(90_000);
  let folder: string;
  const running: ChildProcess[] = [];

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'porter-npm-start-'));
  });

  afterEach(async () => {
    for (const child of running.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await rm(folder, { recursive: true, force: true });
  });

  for (const [label, secret] of [
    ['with PORTER_SECRET', { PORTER_SECRET: SECRET }],
    ['without PORTER_SECRET', {}],
  ] as const) {
    it(`refuses NODE_ENV=production ${label}: exit 1, pointing at porter serve --config; nothing listens, nothing is written`, async () => {
      const port = await freePort();
      const started = start(NODE, [...WITH_TSX, MAIN], { NODE_ENV: 'production', PORT: String(port), ...secret }, folder);
      running.push(started.child);
      expect(await started.exited, started.output()).to.equal(1);
      expect(started.output()).to.contain('porter serve --config <file>').and.contain('x-demo-user').and.contain('NODE_ENV=production');
      expect(await answers(port)).to.equal(false);
      // No .porter/secret, no database: it stopped before touching anything.
      expect(await readdir(folder, { recursive: true })).to.deep.equal([]);
    });
  }

  it('still runs the development host without NODE_ENV=production, signing in from x-demo-user and keeping .porter/secret', async () => {
    const port = await freePort();
    const started = start(NODE, [...WITH_TSX, MAIN], { PORT: String(port), PORTER_DATABASE_URL: 'sqlite::memory:' }, folder);
    running.push(started.child);
    await started.says('development host listening');
    const signedIn = await fetch(`http://127.0.0.1:${port}/api/porter/threads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-demo-user': 'ada' },
      body: '{}',
    });
    expect(signedIn.status).to.equal(201);
    expect(signedIn.headers.getSetCookie().join(), 'a signed-in person gets no anonymous cookie').to.not.contain('porter_anon');
    expect(await readdir(join(folder, '.porter'))).to.include('secret');
    started.child.kill('SIGTERM');
    expect(await started.exited).to.equal(0);
  });

  it('porter serve --demo runs the demo host in production only when asked, with a warning, and mints no secret', async () => {
    const started = start(
      process.execPath,
      [BIN, 'serve', '--demo', '--port', '0'],
      { NODE_ENV: 'production', PORTER_SECRET: SECRET, PORTER_DATABASE_URL: 'sqlite::memory:' },
      folder,
    );
    running.push(started.child);
    await started.says('production host listening');
    // Said on stderr just before the listening line on stdout: the two pipes may arrive in either order.
    await started.says('--demo in production signs in anyone who sends an x-demo-user header');
    expect(await readdir(folder, { recursive: true })).to.deep.equal([]);
    started.child.kill('SIGTERM');
    expect(await started.exited, started.output()).to.equal(0);
  });
});
