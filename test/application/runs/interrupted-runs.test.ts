import { expect } from 'chai';
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { ToolDefinition } from '../../../ports/tool-registry.js';
import type { InstanceLiveness } from '../../../ports/liveness.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import { openStore } from '../../../adapters/store/open-store.js';
import type { Store } from '../../../ports/store.js';
import { INTERRUPTED_RUN_ERROR } from '../../../domain/runs/run.js';
import { ada } from '../../support/guard-harness.js';
import { automationsHarness } from '../../support/automations-harness.js';
import { ManualClock } from '../../support/manual-clock.js';
import { RecordingLanguageModel } from '../../support/recording-model.js';
import { until } from '../../support/eventually.js';

const LEASE_MS = 60_000;

/** A tool that counts its calls; its first call never returns (its instance dies while it runs). */
function tool(name: string, risk: ToolDefinition['risk'], extra: Partial<ToolDefinition> = {}) {
  const calls: unknown[] = [];
  const definition: ToolDefinition = {
    name,
    description: `${name} for tests`,
    inputSchema: { type: 'object', additionalProperties: true },
    risk,
    ...extra,
    async execute(input) {
      calls.push(input);
      if (name.startsWith('slow') && calls.length === 1) await new Promise(() => {});
      return { done: name };
    },
  };
  return { tool: definition, calls };
}

/** One step asks for both calls (the ledger first); once their results are back, it answers. */
const model = (slow: string) =>
  new RecordingLanguageModel((prompt: LanguageModelV4Prompt) =>
    prompt.some((message) => message.role === 'tool')
      ? { text: 'all done' }
      : {
          toolCalls: [
            { toolName: 'ledger_add', input: { entry: 'paid' } },
            { toolName: slow, input: {} },
          ],
        },
  );

const STORES: Array<{ name: string; open: (clock: ManualClock) => Promise<{ store: Store; close: () => Promise<void> }> }> = [
  { name: 'memory', open: async (clock) => ({ store: new MemoryStore({ clock }), close: async () => {} }) },
  {
    name: 'SQLite',
    open: async (clock) => {
      const folder = await mkdtemp(join(tmpdir(), 'porter-interrupted-runs-'));
      const store = await openStore(`sqlite:${join(folder, 'porter.db')}`, { clock });
      return {
        store,
        close: async () => {
          await store.close();
          await rm(folder, { recursive: true, force: true });
        },
      };
    },
  },
];
const opened: Array<() => Promise<void>> = [];

/** Two instances on one store: A executes the run until its slow call, then "dies" (never heard from again). */
async function interruptedOnA(open: (typeof STORES)[number]['open'], slow: ReturnType<typeof tool>) {
  const clock = new ManualClock('2026-06-01T12:00:00.000Z');
  const { store, close } = await open(clock);
  opened.push(close);
  const ledger = tool('ledger_add', 'write');
  const tools = [ledger.tool, slow.tool];
  const common = { tools, store, clock, leaseMs: LEASE_MS, model: model(slow.tool.name) };
  const a = automationsHarness({ ...common, holder: 'instance-a' });
  const b = automationsHarness({ ...common, holder: 'instance-b' });
  const automation = await a.automation({ prompt: 'pay and check', tools: ['ledger_add', slow.tool.name] });
  await a.armApproved(automation.id);
  const [runId] = (await a.tick.execute()).runIds;
  void a.runQueued();
  await until(
    () => slow.calls.length,
    (n) => n === 1,
    { what: 'the slow call to start on A' },
  );
  return { a, b, runId: runId!, ledger };
}

for (const { name, open } of STORES)
  describe(`On ${name}, a run whose instance died is retried elsewhere, resuming after the calls that ran`, () => {
    afterEach(async () => {
      for (const close of opened.splice(0)) await close();
    });

    it('B takes it back once A’s lease lapsed: the ledger call is not run again, the read call runs again, the run succeeds', async () => {
      const slow = tool('slow_check', 'read');
      const { a, b, runId, ledger } = await interruptedOnA(open, slow);
      // What A recorded before it died: the ledger call ended, the slow call started.
      const parts = (await b.getRun.execute({ principal: ada, runId })).messages.flatMap((m) => m.parts);
      expect(parts.filter((p) => p.type.startsWith('tool-')).map((p) => [p.type, (p as { state?: string }).state])).to.deep.equal([
        ['tool-ledger_add', 'output-available'],
        ['tool-slow_check', 'input-available'],
      ]);

      a.clock.advance(LEASE_MS / 2);
      await b.sweep.execute();
      expect((await b.getRun.execute({ principal: ada, runId })).state, 'A is still within its lease').to.equal('running');
      a.clock.advance(LEASE_MS / 2 + 1);
      await b.sweep.execute();
      expect(await b.runQueued()).to.include(runId);

      const run = await b.getRun.execute({ principal: ada, runId });
      expect(run.state).to.equal('succeeded');
      expect(run.attempts.map((attempt) => [attempt.number, attempt.outcome, attempt.error])).to.deep.equal([
        [1, 'interrupted', INTERRUPTED_RUN_ERROR],
        [2, 'succeeded', null],
      ]);
      expect(ledger.calls, 'the ledger call ran once').to.have.length(1);
      expect(slow.calls, 'the read call that was cut short ran again').to.have.length(2);
      const after = run.messages.flatMap((m) => m.parts);
      expect(after.filter((p) => p.type.startsWith('tool-')).map((p) => (p as { state?: string }).state)).to.deep.equal([
        'output-available',
        'output-available',
      ]);
      expect(after.some((p) => p.type === 'text' && (p as { text: string }).text === 'all done')).to.equal(true);
      const audit = (await b.auditLog.list('ada', {})).events.filter((e) => e.action === 'run.interrupted');
      expect(audit.map((e) => e.outcome)).to.deep.equal(['queued']);
    });

    it('a write call cut short is not run again: the run ends failed saying it cannot resume', async () => {
      const slow = tool('slow_send', 'write');
      const { a, b, runId, ledger } = await interruptedOnA(open, slow);
      a.clock.advance(LEASE_MS + 1);
      await b.sweep.execute();
      await b.runQueued();

      const run = await b.getRun.execute({ principal: ada, runId });
      expect(run).to.deep.include({ state: 'failed', ending: 'error' });
      expect(run.error).to.match(/cannot resume: slow_send was running when the instance executing this run stopped/);
      expect(run.attempts.map((attempt) => attempt.outcome)).to.deep.equal(['interrupted', 'failed']);
      expect(ledger.calls).to.have.length(1);
      expect(slow.calls, 'never run twice').to.have.length(1);
      const part = run.messages.flatMap((m) => m.parts).find((p) => p.type === 'tool-slow_send');
      expect(part).to.deep.include({ state: 'output-error' });
    });

    it('a write tool that declares itself idempotent runs again', async () => {
      const slow = tool('slow_upsert', 'write', { idempotent: true });
      const { a, b, runId, ledger } = await interruptedOnA(open, slow);
      a.clock.advance(LEASE_MS + 1);
      await b.sweep.execute();
      await b.runQueued();
      expect((await b.getRun.execute({ principal: ada, runId })).state).to.equal('succeeded');
      expect(ledger.calls).to.have.length(1);
      expect(slow.calls).to.have.length(2);
    });
  });

describe('An instance that loses its own liveness mark lets go of its runs', () => {
  it('marks its leases while it holds the mark; lost, the run in flight is abandoned and put back in the queue at once: nothing more is written or settled by it, and it goes on', async () => {
    const lost: Array<() => void> = [];
    const liveness: InstanceLiveness = {
      holding: true,
      hold: async () => {},
      onLost: (listener) => void lost.push(listener),
      alive: async () => ({ keys: new Set(), isAlive: () => false }),
      release: async () => {},
    };
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const calls: unknown[] = [];
    const slow: ToolDefinition = {
      name: 'slow_check',
      description: 'slow_check for tests',
      inputSchema: { type: 'object', additionalProperties: true },
      risk: 'read',
      async execute(input) {
        calls.push(input);
        await gate;
        return { checked: true };
      },
    };
    const h = automationsHarness({ tools: [slow], liveness });
    const automation = await h.automation({ prompt: '/call slow_check {}', tools: ['slow_check'] });
    await h.arm.execute({ principal: ada, automationId: automation.id });
    const [runId] = (await h.tick.execute()).runIds;
    const executing = h.runQueued();
    await until(
      () => calls.length,
      (n) => n === 1,
      { what: 'the call to start' },
    );
    expect((await h.runs.find(runId!))!.run.watchedHolder, 'its lease says the mark backs it').to.equal('instance-a');

    for (const listener of lost) listener();
    // Put back in the queue at once (no lease to wait out), its attempt interrupted, before the call ends.
    const queued = await until(
      () => h.getRun.execute({ principal: ada, runId: runId! }),
      (run) => run.state === 'queued',
      { what: 'the run to be put back' },
    );
    expect(queued.attempts.map((attempt) => attempt.outcome)).to.deep.equal(['interrupted']);
    release();
    await executing;
    // Handed out again, the run goes on: the call whose end was never recorded runs again, and
    // nothing the executor that let go saw after was written (one attempt ended, one succeeded).
    const retried = await h.getRun.execute({ principal: ada, runId: runId! });
    expect(retried.state).to.equal('succeeded');
    expect(retried.attempts.map((attempt) => attempt.outcome)).to.deep.equal(['interrupted', 'succeeded']);
    expect(calls).to.have.length(2);
  });
});
