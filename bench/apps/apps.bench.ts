import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { App } from '../../domain/apps/app.js';
import type { AppPrimitives } from '../../domain/apps/app.js';
import type { Principal } from '../../domain/principal.js';
import { scaffold } from '../../adapters/apps/node-app-scaffold.js';
import type { ApprovalPrimitives } from '../../domain/guard/approval.js';
import type { Store } from '../../ports/store.js';
import type { Sandbox } from '../../ports/sandbox.js';
import type { AppsUseCases } from '../../ports/use-cases/apps.js';
import { openStore } from '../../adapters/store/open-store.js';
import { DeterministicAppGenerator } from '../../adapters/apps/deterministic-app-generator.js';
import { LocalSandbox } from '../../adapters/sandbox/local/local-sandbox.js';
import { AppBook, type VersionPrimitives } from '../../application/apps/app-book.js';
import { contentHashOf } from '../../application/apps/content-hash.js';
import { ApprovalBook } from '../../application/guard/approval-book.js';
import { assembleApps } from '../../composition/modules/apps-module.js';
import { UlidIds } from '../../adapters/runtime/ulid-ids.js';
import { NoUsageMeter } from '../../application/usage/no-usage-meter.js';
import { NoTurnSlots } from '../../application/usage/no-turn-slots.js';
import { largeDocument } from '../../test/support/apps-documents.js';
import { compare, type BenchResult } from '../support/harness.js';
import { inScratchFolder } from '../support/scratch-folder.js';

const wallClock = { now: () => new Date() };
const quiet = { info() {}, warn() {}, error() {} };
const ada: Principal = { subject: 'ada', kind: 'user' };

function appsOver(store: Store, sandbox: Sandbox | null): { apps: AppsUseCases; book: AppBook } {
  const book = new AppBook(store.records<AppPrimitives>('apps'), store.records<VersionPrimitives>('app-versions'));
  const apps = assembleApps({
    store,
    book,
    generator: new DeterministicAppGenerator(),
    catalog: null,
    sandbox,
    approvals: new ApprovalBook(store.records<ApprovalPrimitives>('approvals')),
    ids: new UlidIds(),
    clock: wallClock,
    logger: quiet,
    canShareApps: null,
    meter: new NoUsageMeter(),
    slots: new NoTurnSlots(),
  });
  return { apps, book };
}

/**
 * Apps: opening a 2,000-node tree app from a SQLite file (p50) beside JSON.parse of the same
 * document as stored; and graduating an app on the local sandbox beside a bare `node server.js`
 * start of the same scaffold to its first accepted connection.
 */
export async function run(): Promise<BenchResult[]> {
  return inScratchFolder('porter-apps-bench-', async (folder) => [await openLargeApp(folder), await graduation(folder)]);
}

async function openLargeApp(folder: string): Promise<BenchResult> {
  const store = await openStore(`sqlite:${join(folder, 'open.db')}`, { clock: wallClock });
  try {
    const { apps, book } = appsOver(store, null);
    const document = largeDocument(2_000);
    const app = App.create({
      id: 'app_bench0000000001',
      owner: ada.subject,
      document,
      version: 'ver_bench0000000001',
      contentHash: contentHashOf(document),
      at: new Date().toISOString(),
    });
    await book.insert(app, 'create');
    const stored = JSON.stringify(app.toPrimitives());
    return await compare({
      name: 'open a 2,000-node tree app (sqlite)',
      subject: { name: 'GET /apps/:id/open use case', run: () => apps.openApp.execute({ principal: ada, appId: app.id }) },
      anchor: { name: 'JSON.parse of the stored row', run: async () => JSON.parse(stored) },
      iterations: 400,
      measure: 'p50',
      goal: 0.25,
    });
  } finally {
    await store.close();
  }
}

async function graduation(folder: string): Promise<BenchResult> {
  const store = await openStore('memory:', { clock: wallClock });
  const sandbox = new LocalSandbox({ root: join(folder, 'sandboxes'), startTimeoutMs: 10_000 });
  const { apps } = appsOver(store, sandbox);
  const iterations = 12;
  const warmup = 2;
  const ids: string[] = [];
  for (let i = 0; i < iterations + warmup; i++) {
    const app = await apps.createApp.execute({ principal: ada, prompt: 'reading list' });
    await apps.editApp.execute({ principal: ada, appId: app.id, instruction: 'add a server function named shelve' });
    ids.push(app.id);
  }
  // The anchor runs the very files graduation writes, started by hand.
  const bare = join(folder, 'bare');
  const document = (await apps.getApp.execute({ principal: ada, appId: ids[0]! })).document;
  for (const file of scaffold(document)) {
    const path = join(bare, file.path.replace(/^\/app\//, ''));
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.content);
  }
  try {
    return await compare({
      name: 'graduate an app (local sandbox)',
      subject: {
        name: 'graduate: scaffold, start, snapshot',
        run: async (i) => {
          await apps.graduateApp.execute({ principal: ada, appId: ids[i]! });
          await (await sandbox.open(ids[i]!, { egress: null })).close();
        },
      },
      anchor: { name: 'bare `node server.js` to listening', run: () => bareStart(bare) },
      iterations,
      warmup,
      slice: 2,
      measure: 'p50',
      goal: 0.5,
    });
  } finally {
    await sandbox.closeAll();
    await store.close();
  }
}

async function bareStart(directory: string): Promise<void> {
  const port = await freePort();
  const child = spawn(process.execPath, ['server.js'], { cwd: directory, env: { PORT: String(port), HOST: '127.0.0.1' }, stdio: 'ignore' });
  try {
    const deadline = Date.now() + 10_000;
    while (!(await accepts(port))) {
      if (Date.now() > deadline) throw new Error('the bare server did not listen');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    child.kill();
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => (socket.destroy(), resolve(false)));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
