/**
 * Mounts every attack of an app owner on the local sandbox (bubblewrap) from a host process of
 * its own, so a test can run it as root and as an ordinary user (`spawn` with a uid): prints one
 * line, `REPORT <json>`, with what each attack got. See `attack-app.ts` for the attacks' side.
 *
 * The host's secrets are canaries in a scratch folder that is also the host's working directory
 * (so `/proc/self/cwd/.porter/secret`, read by the host, is the canary): `.porter/secret`, a
 * `host-folder/` that must stay empty, and a Unix socket service that answers with a secret.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { LocalSandbox } from '../../adapters/sandbox/local/local-sandbox.js';
import type { SandboxSession } from '../../ports/sandbox.js';
import { attackApp } from './attack-app.js';
import { processTree } from './process-tree.js';

const scratch = await mkdtemp(join(tmpdir(), 'porter-attacks-'));
process.chdir(scratch);
const secret = `CANARY-${randomBytes(12).toString('hex')}`;
await mkdir(join(scratch, '.porter'));
await writeFile(join(scratch, '.porter', 'secret'), secret);
const shadowLine = (await readFile('/etc/shadow', 'utf8').catch(() => '')).split('\n')[0] ?? '';
const hostFolder = join(scratch, 'host-folder');
await mkdir(hostFolder);
const root = join(scratch, '.porter', 'sandboxes');
const servicePath = join(scratch, 'secret.sock');
let serviceConnections = 0;
const service = createServer((socket) => {
  serviceConnections++;
  socket.on('error', () => undefined);
  socket.end(`HTTP/1.1 200 OK\r\ncontent-length: ${secret.length}\r\nconnection: close\r\n\r\n${secret}`);
});
await new Promise<void>((resolve) => service.listen(servicePath, resolve));

const sandbox = new LocalSandbox({
  root,
  startTimeoutMs: 10_000,
  appLimits: { processes: 64, memoryMb: 192, cpuSecondsPerMinute: 2, diskMb: 32, watchMs: 100 },
} as ConstructorParameters<typeof LocalSandbox>[0]);

const call = async (session: SandboxSession, name: string, body: unknown = {}) => {
  const response = await session.fetch(`/fn/${name}`, { method: 'POST', body: JSON.stringify(body), headers: { connection: 'close' } });
  return response.json() as Promise<Record<string, unknown>>;
};

async function served(id: string): Promise<SandboxSession> {
  const session = await sandbox.open(id, { egress: null, owner: id });
  await session.writeFiles(attackApp(id));
  await session.start();
  return session;
}

/** Every file under the host's sandbox root that holds a host secret. */
async function leaks(): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true }).catch(() => [])) {
      const place = join(folder, entry.name);
      if (entry.isDirectory()) await walk(place);
      else if (entry.isFile()) {
        const text = await readFile(place, 'utf8').catch(() => '');
        if (text.includes(secret) || (shadowLine && text.includes(shadowLine))) found.push(place.slice(root.length));
      }
    }
  };
  await walk(root);
  return found;
}

/**
 * How many of the app's swappers said they were flipping: a race the app never mounted proves
 * nothing, so the tests check this is not 0.
 */
const swapsMounted = { read: 0, write: 0 };

/** Asks the app to start a swapper, counting it when it answers that it is swapping. */
async function swap(session: SandboxSession, race: keyof typeof swapsMounted, name: string, body: unknown): Promise<void> {
  const answer = await call(session, name, body).catch(() => null);
  if (answer?.started === true) swapsMounted[race]++;
}

/** The host's snapshot of an app (and its working tree), taken while the app swaps links in its folder. */
async function readRace(rounds: number): Promise<string[]> {
  const session = await served('app_read');
  const targets = ['/proc/self/cwd/.porter/secret', join(scratch, '.porter', 'secret'), '/etc/shadow'];
  const names = ['notes.txt', 'data.json', 'style.css', 'lib', 'extra.txt'];
  for (let round = 0; round < rounds; round++) {
    // What fails under the race fails; what matters is what the host copied.
    await swap(session, 'read', 'swap-links', { targets, names, ms: 4000 });
    await session.writeFiles([{ path: '/app/app.json', content: JSON.stringify({ round }) }]).catch(() => undefined);
    await session.start().catch(() => undefined);
    await swap(session, 'read', 'swap-links', { targets, names, ms: 4000 });
    await session.snapshot().catch(() => undefined);
  }
  return leaks();
}

/** The host's writes into an app while the app swaps a folder of its own with a link to a host folder. */
async function writeRace(rounds: number): Promise<string[]> {
  const session = await served('app_write');
  for (let round = 0; round < rounds && (await readdir(hostFolder)).length === 0; round++) {
    if (round % 40 === 0) await swap(session, 'write', 'swap-dir', { name: 'lib', target: hostFolder, ms: 4000 });
    // An edit: a few files, some in the folder the app swaps.
    const edit = [`/app/lib/evil-${round}.js`, `/app/lib/util-${round}.js`, `/app/app-${round}.json`];
    await session.writeFiles(edit.map((path) => ({ path, content: `module.exports = ${round};` }))).catch(() => undefined);
  }
  const snapshot = await session.snapshot().catch(() => null);
  for (let round = 0; round < 5 && snapshot; round++) {
    await swap(session, 'write', 'swap-dir', { name: 'lib', target: hostFolder, ms: 2000 });
    await session.restore(snapshot).catch(() => undefined);
  }
  return readdir(hostFolder);
}

async function probe() {
  const session = await served('app_probe');
  const seen = await call(session, 'probe');
  const pid =
    (session as { sandboxPid?: number }).sandboxPid ?? Number(await readFile(join(root, '.run', 'app_probe.pid'), 'utf8').catch(() => '0'));
  const hostUids: number[] = [];
  for (const each of pid ? await processTree(pid) : []) {
    const status = await readFile(`/proc/${each}/status`, 'utf8').catch(() => '');
    const uid = /^Uid:\s+(\d+)/m.exec(status);
    if (uid) hostUids.push(Number(uid[1]));
  }
  return { ...seen, hostUids, scratch, root };
}

async function socketSwap() {
  const session = await served('app_socket');
  const planted = await call(session, 'plant-socket', { target: servicePath });
  const answers: string[] = [];
  for (let i = 0; i < 5; i++) {
    answers.push(
      await session.fetch('/', { headers: { connection: 'close' } }).then(
        (response) => response.text(),
        (error: Error) => `failed: ${error.message}`,
      ),
    );
  }
  return { planted: planted.planted, answers, serviceConnections, secretSeen: answers.some((answer) => answer.includes(secret)) };
}

/** Event-loop lag of this host while `during` runs: whether the host stayed responsive. */
async function lagDuring<T>(during: () => Promise<T>): Promise<{ result: T; maxLagMs: number }> {
  let maxLagMs = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    maxLagMs = Math.max(maxLagMs, now - last - 50);
    last = now;
  }, 50);
  try {
    return { result: await during(), maxLagMs: Math.round(maxLagMs) };
  } finally {
    clearInterval(timer);
  }
}

/** A limit attack: what stopped the app (null when nothing did within 15 s), and how long it took. */
async function limitAttack(id: string, name: string, body: unknown) {
  return lagDuring(async () => {
    const session = await served(id);
    const started = performance.now();
    const answer = await call(session, name, body).catch((error: Error) => ({ failed: error.message }));
    let stop = null;
    // A busy machine gives the bomb less CPU: the CPU limit is reached later in wall time.
    while (performance.now() - started < 60_000) {
      stop = (session as { stopped?: () => { limit: string; message: string } | null }).stopped?.() ?? null;
      if (stop) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const listening = await session.isListening();
    return { answer, stop, listening, afterMs: Math.round(performance.now() - started) };
  });
}

const report: Record<string, unknown> = { uid: process.getuid?.() };
/** One attack's outcome, or what broke it (then the test names the attack and the error). */
const attempt = async (name: string, attack: () => Promise<unknown>) => {
  try {
    report[name] = await attack();
  } catch (error) {
    report[name] = { error: error instanceof Error ? error.stack : String(error) };
  }
};
try {
  await attempt('readLeaks', () => readRace(Number(process.env.ATTACK_ROUNDS ?? 40)));
  await attempt('writeLeaks', () => writeRace(400));
  await attempt('probe', probe);
  await attempt('socket', socketSwap);
  await attempt('fork', () => limitAttack('app_fork', 'fork', { count: 300 }));
  await attempt('memory', () => limitAttack('app_memory', 'memory', { mb: 1536 }));
  await attempt('diskTmp', () => limitAttack('app_disk_tmp', 'disk', { mb: 400, dir: '/tmp' }));
  await attempt('diskApp', () => limitAttack('app_disk_app', 'disk', { mb: 400, dir: '.' }));
  // Spins until stopped (or a minute): 2 s of CPU a minute is crossed however busy the machine is.
  await attempt('cpu', () => limitAttack('app_cpu', 'spin', { ms: 60_000 }));
  report.swapsMounted = swapsMounted;
} finally {
  await sandbox.closeAll();
  service.close();
  await rm(scratch, { recursive: true, force: true });
}
process.stdout.write(`REPORT ${JSON.stringify(report)}\n`);
process.exit(0);
