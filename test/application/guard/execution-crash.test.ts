import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '../../../adapters/store/open-store.js';
import { SystemClock } from '../../../adapters/runtime/system-clock.js';
import { startTsx } from '../../support/child-process.js';
import { INTERRUPTED_ERROR } from '../../../domain/guard/approval.js';
import type { Store } from '../../../ports/store.js';
import { ada, countingTool, guardHarness } from '../../support/guard-harness.js';
import { createTestDatabase, postgresServerUrl } from '../../support/postgres.js';
import { RecordingLanguageModel } from '../../support/recording-model.js';
import { collect, turnHarness } from '../../support/turn-harness.js';
import { until } from '../../support/eventually.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const EXECUTOR = join(ROOT, 'test', 'support', 'approval-executor.ts');
/** Short enough to test quickly, long enough that a busy machine's heartbeat keeps it. */
const LEASE_MS = 1_500;

/** Starts the executor process and resolves once its tool runs, with the approval it executes. */
async function startExecutor(databaseUrl: string): Promise<{ child: ChildProcess; approvalId: string }> {
  const { child, match } = await startTsx({
    script: EXECUTOR,
    args: [databaseUrl, String(LEASE_MS)],
    ready: /executing (apr_\w+)/,
    exited: 'the executor exited before its tool ran',
  });
  return { child, approvalId: match[1]! };
}

/** Reads the approval until `done` says so, or fails after `withinMs`. */
const readUntil = <T>(read: () => Promise<T>, done: (value: T) => boolean, withinMs: number, what: string): Promise<T> =>
  until(read, done, { timeoutMs: withinMs, what });

const stores: Array<{ name: string; open: () => Promise<{ url: string; drop: () => Promise<void> } | null> }> = [
  {
    name: 'SQLite',
    open: async () => {
      const folder = await mkdtemp(join(tmpdir(), 'porter-execution-crash-'));
      return { url: `sqlite:${join(folder, 'porter.db')}`, drop: () => rm(folder, { recursive: true, force: true }) };
    },
  },
  {
    name: 'PostgreSQL',
    open: async () => {
      const server = await postgresServerUrl();
      return server ? createTestDatabase(server) : null;
    },
  },
];

describe('An approved call whose executor is killed (kill -9) reads executed, ok:false, within its lease', function () {
  this.timeout(60_000);

  for (const { name, open } of stores) {
    it(`on ${name}, across processes: kept while the executor lives, ended soon after it dies, never run again`, async function () {
      const database = await open();
      if (!database) return this.skip();
      let child: ChildProcess | null = null;
      let store: Store | null = null;
      try {
        const started = await startExecutor(database.url);
        child = started.child;
        const { approvalId } = started;
        // Another instance on the same database: it reads the approval and could execute it.
        const clock = new SystemClock();
        store = await openStore(database.url, { clock });
        const twin = countingTool('slow_write', 'write');
        const h = guardHarness({ tools: [twin.tool], store, clock, executionLeaseMs: LEASE_MS });
        const read = () => h.get.execute({ principal: ada, approvalId });
        const revision = async () => (await h.approvals.find(approvalId))!.record.revision;

        // While the executor lives, its heartbeat keeps a call longer than three leases executing.
        const executingFrom = Date.now();
        const firstRevision = await revision();
        await readUntil(
          async () => {
            const view = await read();
            expect(view, 'executing reads as pending without request').to.deep.equal({ id: approvalId, state: 'pending' });
            return Date.now() - executingFrom;
          },
          (elapsed) => elapsed > 3 * LEASE_MS,
          3 * LEASE_MS + 5_000,
          'the live execution',
        );
        expect(await revision(), 'the heartbeat renewed the lease').to.be.greaterThan(firstRevision + 3);

        child.kill('SIGKILL');
        await once(child, 'exit');
        const killedAt = Date.now();
        const ended = await readUntil(read, (view) => view.state === 'executed', LEASE_MS + 10_000, 'after the kill');
        const tookMs = Date.now() - killedAt;
        expect(tookMs, 'within the lease after the kill').to.be.at.most(LEASE_MS + 1_000);
        expect(ended.outcome).to.deep.equal({ kind: 'executed', ok: false, error: INTERRUPTED_ERROR });
        expect(ended.request?.tool).to.equal('slow_write');

        // Never run again, by any instance.
        expect(await h.executeApproved.execute({ approvalId, principal: ada, signal: new AbortController().signal })).to.equal(null);
        expect(await h.executeApproved.forThread('thr_session1', { principal: ada, signal: new AbortController().signal })).to.deep.equal(
          [],
        );
        expect(twin.calls).to.have.length(0);
      } finally {
        if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await store?.close();
        await database.drop();
      }
    });
  }
});

describe('The next turn of a thread whose approved call was interrupted', () => {
  it('answers the waiting tool part with the interrupted outcome, so the model reads it', async () => {
    const model = new RecordingLanguageModel((_prompt, call) =>
      call === 0 ? { toolCalls: [{ toolName: 'notes_add', input: { text: 'milk' } }] } : { text: 'noted what happened' },
    );
    const add = countingTool('notes_add', 'write');
    const h = turnHarness({ model, tools: [add.tool] });
    const { id: threadId } = await h.createThread.execute({ principal: ada });
    await h.say(threadId, 'add milk');
    const [pending] = (await h.list.execute({ principal: ada })).approvals;
    await h.decide.execute({ principal: ada, approvalId: pending!.id, approve: true });
    // An executor on another instance claimed it, then died: its lease lapses unrenewed.
    const approved = (await h.approvals.find(pending!.id))!;
    expect((await h.approvals.swap(approved, approved.approval.startExecution(h.clock.now().toISOString(), 1_000))) !== null).to.equal(
      true,
    );
    h.clock.advance(1_000);

    const chunks = await collect(await h.runTurn.execute({ principal: ada, threadId }));
    expect(chunks).to.deep.include({ type: 'tool-output-error', toolCallId: pending!.request!.toolCallId, errorText: INTERRUPTED_ERROR });
    const seen = model.prompts[1]!.flatMap((m) => (m.role === 'tool' ? m.content : [])) as unknown as Array<{
      output: { type: string; value: string };
    }>;
    expect(seen.map((part) => part.output)).to.deep.equal([{ type: 'error-text', value: INTERRUPTED_ERROR }]);
    expect(add.calls, 'never run again').to.have.length(0);
  });
});
