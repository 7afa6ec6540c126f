import { join } from 'node:path';
import { openStore } from '../../adapters/store/open-store.js';
import { SystemClock } from '../../adapters/runtime/system-clock.js';
import { UlidIds } from '../../adapters/runtime/ulid-ids.js';
import { RunAppAction } from '../../application/apps/run-app-action.js';
import { startDevHost } from '../../composition/dev-host/dev-host.js';
import { get, TOKENS } from '../../composition/tokens.js';
import type { AppGenerator } from '../../ports/app-generator.js';
import { appsHarness } from '../../test/support/apps-harness.js';
import { toolDocument } from '../../test/support/apps-documents.js';
import { ada, countingTool } from '../../test/support/guard-harness.js';
import { compareAddedP50, type BenchResult } from '../support/harness.js';
import { inScratchFolder } from '../support/scratch-folder.js';
import { containerOf } from '../../composition/porter-container.js';

/**
 * Apps reaching outside their tree: an app's read-tool action (the app loaded, its action found,
 * then the guard) beside the same guarded call made directly, on SQLite; and a served app's page
 * through the wire's view route (resolver, app lookup, proxy, headers) beside the app server's own
 * answer over loopback. Goals: under 1 ms and under 3 ms added at p50.
 */
export async function run(): Promise<BenchResult[]> {
  return inScratchFolder('porter-app-actions-bench-', async (folder) => [await toolAction(folder), await servedPage(folder)]);
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

async function servedPage(folder: string): Promise<BenchResult> {
  const host = await startDevHost({
    port: 0,
    env: {
      NODE_ENV: 'development',
      PORTER_DATABASE_URL: `sqlite:${join(folder, 'view.db')}`,
      PORTER_SECRET: 'a-development-secret-for-the-bench-0123456789',
    },
    porter: { logger: 'silent', sandbox: { kind: 'local', root: join(folder, 'sandboxes'), startTimeoutMs: 10_000 } },
  });
  try {
    const base = `${host.url}${host.porter.mount}`;
    const headers = { 'content-type': 'application/json', 'x-demo-user': 'ada' };
    const app = (await (
      await fetch(`${base}/apps`, { method: 'POST', headers, body: JSON.stringify({ prompt: 'reading list' }) })
    ).json()) as { id: string };
    const graduated = await fetch(`${base}/apps/${app.id}/graduate`, { method: 'POST', headers, body: '{}' });
    if (graduated.status !== 200) throw new Error(`graduation failed: ${await graduated.text()}`);
    const session = await get(containerOf(host.porter), TOKENS.Sandbox).open(app.id, { egress: null });
    return await compareAddedP50({
      name: "served app's page (local sandbox)",
      subject: {
        name: 'GET /apps/:id/view/ through the wire',
        run: async () => {
          const page = await fetch(`${base}/apps/${app.id}/view/`, { headers: { 'x-demo-user': 'ada' } });
          if (page.status !== 200) throw new Error(`the view answered ${page.status}`);
          await page.arrayBuffer();
        },
      },
      anchor: { name: "the app server's own GET /", run: async () => (await session.fetch('/')).arrayBuffer() },
      iterations: 1_000,
      budgetMs: 3,
    });
  } finally {
    await host.close();
  }
}
