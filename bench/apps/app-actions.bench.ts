import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { LocalSandbox } from '../../adapters/sandbox/local/local-sandbox.js';
import { scaffold } from '../../adapters/apps/node-app-scaffold.js';
import { freePort } from '../../adapters/sandbox/net-probe.js';
import type { AppDocument } from '../../domain/apps/app-document.js';
import { openStore } from '../../adapters/store/open-store.js';
import { SystemClock } from '../../adapters/runtime/system-clock.js';
import { UlidIds } from '../../adapters/runtime/ulid-ids.js';
import { RunAppAction } from '../../application/apps/run-app-action.js';
import { startDevHost } from '../../composition/dev-host/dev-host.js';
import type { AppGenerator } from '../../ports/app-generator.js';
import { appsHarness } from '../../test/support/apps-harness.js';
import { toolDocument } from '../../test/support/apps-documents.js';
import { ada, countingTool } from '../../test/support/guard-harness.js';
import { compare, compareAddedP50, type BenchResult } from '../support/harness.js';
import { inScratchFolder } from '../support/scratch-folder.js';

/**
 * Apps reaching outside their tree: an app's read-tool action (the app loaded, its action found,
 * then the guard) beside the same guarded call made directly, on SQLite; a served app's page
 * through the wire's view route (resolver, app lookup, the sandbox's door, headers) beside the same
 * app server run bare on the host; and that page with the app limits on beside it with the
 * loosest limits. Goals: under 1 ms and under 3 ms added at p50; limits ≤ 1.05×.
 */
export async function run(): Promise<BenchResult[]> {
  return inScratchFolder('porter-app-actions-bench-', async (folder) => [
    await toolAction(folder),
    await servedPage(folder),
    await limitsCost(folder),
  ]);
}

const writes: AppGenerator = {
  async *create() {
    yield toolDocument();
  },
  async *edit() {
    yield toolDocument();
  },
};

async function toolAction(folder: string): Promise<BenchResult> {
  const store = await openStore(`sqlite:${join(folder, 'actions.db')}`, { clock: new SystemClock() });
  try {
    const list = countingTool('notes_list', 'read');
    const h = appsHarness({
      store,
      generator: writes,
      hostTools: [list.tool, countingTool('notes_add', 'write').tool, countingTool('notes_clear', 'destructive').tool],
    });
    const actions = new RunAppAction(h.book, h.guard, new UlidIds());
    const app = await h.apps.createApp.execute({ principal: ada, prompt: 'notes board' });
    const signal = new AbortController().signal;
    return await compareAddedP50({
      name: 'app tool action, read tool (sqlite)',
      subject: {
        name: 'POST /apps/:id/actions use case',
        run: async (i) => {
          const answer = await actions.execute({ principal: ada, appId: app.id, action: 'list-notes', input: { page: i } });
          if (answer.status !== 'ran') throw new Error(`expected the read to run, got ${answer.status}`);
        },
      },
      anchor: {
        name: 'GuardCall, same call',
        run: (i) =>
          h.guard.execute({
            tool: 'notes_list',
            input: { page: i },
            toolCallId: `call_${i}`,
            principal: ada,
            venue: 'app',
            presence: 'present',
            session: app.id,
            reuseParked: true,
            signal,
          }),
      },
      iterations: 3_000,
      budgetMs: 1,
    });
  } finally {
    await store.close();
  }
}

/** A development host on SQLite serving one graduated app from `sandbox`; its wire base and the app. */
async function servingHost(folder: string, name: string, sandbox: LocalSandbox) {
  const host = await startDevHost({
    port: 0,
    env: {
      NODE_ENV: 'development',
      PORTER_DATABASE_URL: `sqlite:${join(folder, `${name}.db`)}`,
      PORTER_SECRET: 'a-development-secret-for-the-bench-0123456789',
    },
    porter: { logger: 'silent', sandbox },
  });
  const base = `${host.url}${host.porter.mount}`;
  const headers = { 'content-type': 'application/json', 'x-demo-user': 'ada' };
  const app = (await (
    await fetch(`${base}/apps`, { method: 'POST', headers, body: JSON.stringify({ prompt: 'reading list' }) })
  ).json()) as {
    id: string;
  };
  const graduated = await fetch(`${base}/apps/${app.id}/graduate`, { method: 'POST', headers, body: '{}' });
  if (graduated.status !== 200) throw new Error(`graduation failed: ${await graduated.text()}`);
  const document = (await (await fetch(`${base}/apps/${app.id}`, { headers })).json()) as { document: AppDocument };
  const page = async () => {
    const answer = await fetch(`${base}/apps/${app.id}/view/`, { headers: { 'x-demo-user': 'ada' } });
    if (answer.status !== 200) throw new Error(`the view answered ${answer.status}`);
    await answer.arrayBuffer();
  };
  return { host, page, document: document.document };
}

/** The served app's page through the wire (sandbox included) beside the same app server run bare on the host. */
async function servedPage(folder: string): Promise<BenchResult> {
  const sandbox = new LocalSandbox({ root: join(folder, 'sandboxes'), startTimeoutMs: 10_000 });
  const served = await servingHost(folder, 'view', sandbox);
  const bare = await bareServer(join(folder, 'bare'), served.document);
  try {
    return await compareAddedP50({
      name: "served app's page (local sandbox)",
      subject: { name: 'GET /apps/:id/view/ through the wire', run: served.page },
      anchor: { name: 'the same app server run bare: its own GET /', run: async () => (await fetch(`${bare.url}/`)).arrayBuffer() },
      iterations: 1_000,
      budgetMs: 3,
    });
  } finally {
    bare.stop();
    await served.host.close();
  }
}

/**
 * What the app limits cost a page load: the same page through the wire from a sandbox with the
 * default limits beside one with the loosest the options allow (the gate watching every 10 s).
 */
async function limitsCost(folder: string): Promise<BenchResult> {
  const limited = await servingHost(folder, 'limited', new LocalSandbox({ root: join(folder, 'limited'), startTimeoutMs: 10_000 }));
  const loose = await servingHost(
    folder,
    'loose',
    new LocalSandbox({
      root: join(folder, 'loose'),
      startTimeoutMs: 10_000,
      appLimits: { processes: 100_000, memoryMb: 1_048_576, cpuSecondsPerMinute: 3_840, diskMb: 1_048_576, watchMs: 10_000 },
    }),
  );
  try {
    return await compare({
      name: "served app's page, default limits (local sandbox)",
      subject: { name: 'GET /apps/:id/view/, default appLimits', run: limited.page },
      anchor: { name: 'the same page, loosest appLimits', run: loose.page },
      iterations: 1_000,
      measure: 'p50',
      goal: 1 / 1.05,
    });
  } finally {
    await limited.host.close();
    await loose.host.close();
  }
}

/** The app's scaffolded files run by hand with `node server.js` on a host port: the anchor's own server. */
async function bareServer(directory: string, document: AppDocument): Promise<{ url: string; stop(): void }> {
  for (const file of scaffold(document)) {
    const path = join(directory, file.path.replace(/^\/app\//, ''));
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.content);
  }
  const port = await freePort();
  const child = spawn(process.execPath, ['server.js'], { cwd: directory, env: { PORT: String(port), HOST: '127.0.0.1' }, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  while (
    !(await fetch(url).then(
      () => true,
      () => false,
    ))
  ) {
    if (Date.now() > deadline) throw new Error('the bare server did not listen');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { url, stop: () => child.kill() };
}
