import { expect } from 'chai';
import { ada, countingTool } from '../../support/guard-harness.js';
import { automationsHarness } from '../../support/automations-harness.js';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import { ManualClock } from '../../support/manual-clock.js';
import { eventually } from '../../support/eventually.js';

/** Resolves when `check` holds (the executor works in the background). */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  if (!(await eventually(check))) expect.fail(`timed out waiting for ${what}`);
}

describe('Runs: cooperative stop, idempotent stops, crashed executors', () => {
  it('stopping a queued run cancels it at once, and stopping it again answers the same', async () => {
    const h = automationsHarness({ tools: [] });
    const automation = await h.automation({ prompt: 'hello' });
    await h.arm.execute({ principal: ada, automationId: automation.id });
    const [runId] = (await h.tick.execute()).runIds;
    const first = await h.stop.execute({ principal: ada, runId: runId! });
    h.clock.advance(5_000);
    const second = await h.stop.execute({ principal: ada, runId: runId! });
    expect(first).to.deep.include({ state: 'cancelled', ending: 'stopped' });
    expect(second).to.deep.equal(first);
    // A cancelled run is terminal: handing it to an executor does nothing.
    await h.runQueued();
    expect((await h.getRun.execute({ principal: ada, runId: runId! })).messages).to.deep.equal([]);
  });

  it('stops racing each other end the run once: one cancellation, one audit event, the same answer', async () => {
    const h = automationsHarness({ tools: [] });
    const automation = await h.automation({ prompt: 'hello' });
    await h.arm.execute({ principal: ada, automationId: automation.id });
    const [runId] = (await h.tick.execute()).runIds;
    const answers = await Promise.all(Array.from({ length: 4 }, () => h.stop.execute({ principal: ada, runId: runId! })));
    for (const answer of answers) expect(answer).to.deep.equal(answers[0]);
    expect(answers[0]).to.deep.include({ state: 'cancelled', ending: 'stopped' });
    const stopped = (await h.auditLog.list('ada', { limit: 100 })).events.filter((e) => e.action === 'run.stopped');
    expect(stopped).to.have.length(1);
  });

  it('stopping a run waiting for an approval cancels it and drops the parked approval', async () => {
    const notes = countingTool('notes_add', 'write');
    const h = automationsHarness({ tools: [notes.tool] });
    const automation = await h.automation({ prompt: '/call notes_add {"text":"never"}' });
    await h.arm.execute({ principal: ada, automationId: automation.id });
    const [runId] = (await h.tick.execute()).runIds;
    await h.runQueued();
    const [parked] = (await h.list.execute({ principal: ada })).approvals;
    expect((await h.getRun.execute({ principal: ada, runId: runId! })).state).to.equal('waiting');

    const stopped = await h.stop.execute({ principal: ada, runId: runId! });
    expect(stopped.state).to.equal('cancelled');
    expect(await h.get.execute({ principal: ada, approvalId: parked!.id })).to.deep.include({
      state: 'expired',
      outcome: { kind: 'expired', reason: 'dropped' },
    });
    expect((await h.list.execute({ principal: ada })).approvals).to.deep.equal([]);
    await expectConflict(h.decide.execute({ principal: ada, approvalId: parked!.id, approve: true }));
    await h.runQueued();
    expect(notes.calls).to.have.length(0);
  });

  it('a stop sent to another instance reaches the executor: the step finishes, its call drains, the run ends cancelled', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const notes = countingTool('notes_add', 'write', { gate });
    const clock = new ManualClock('2026-06-01T12:00:00.000Z');
    const store = new MemoryStore({ clock });
    const a = automationsHarness({ tools: [notes.tool], store, holder: 'instance-a' });
    const b = automationsHarness({ tools: [notes.tool], store, holder: 'instance-b', stopWaitMs: 5_000 });
    const automation = await a.automation({ prompt: '/call notes_add {"text":"slow"}', tools: ['notes_add'] });
    await a.armApproved(automation.id);
    const [runId] = (await a.tick.execute()).runIds;

    const executing = a.runQueued();
    await until(() => notes.calls.length === 1, 'the tool call to start on instance A');
    const stopping = b.stop.execute({ principal: ada, runId: runId! });
    await until(async () => (await b.runs.find(runId!))!.run.stopRequested, 'the stop to be recorded');
    release();
    const answer = await stopping;
    await executing;

    expect(answer).to.deep.include({ state: 'cancelled', ending: 'stopped' });
    expect(await b.stop.execute({ principal: ada, runId: runId! })).to.deep.equal(answer);
    const run = await a.getRun.execute({ principal: ada, runId: runId! });
    const parts = run.messages.flatMap((m) => m.parts);
    // The call in flight drained (its result is kept); no further step ran after the stop.
    expect(parts.find((p) => p.type === 'tool-notes_add')).to.deep.include({ state: 'output-available' });
    expect(parts.filter((p) => p.type === 'step-start')).to.have.length(1);
    expect(notes.calls).to.have.length(1);
  });

  it('a run whose executor crashed is found by its lapsed lease and ended once out of retries, not left running', async () => {
    const h = automationsHarness({ tools: [] });
    const automation = await h.automation({ prompt: 'hello', retry: { max: 0, backoffSeconds: 1 } });
    await h.arm.execute({ principal: ada, automationId: automation.id });
    const [runId] = (await h.tick.execute()).runIds;
    // An executor on an instance that then died: it took the run and never renewed its lease.
    const loaded = (await h.runs.find(runId!))!;
    const now = h.clock.now().getTime();
    await h.runs.swap(loaded, loaded.run.begin('crashed-instance', new Date(now).toISOString(), new Date(now + 60_000).toISOString())!);

    h.clock.advance(30_000);
    await h.sweep.execute();
    expect((await h.getRun.execute({ principal: ada, runId: runId! })).state).to.equal('running');
    h.clock.advance(31_000);
    await h.tick.execute();
    const ended = await h.getRun.execute({ principal: ada, runId: runId! });
    expect(ended).to.deep.include({ state: 'failed', ending: 'interrupted' });
    const activity = await h.auditLog.list('ada', {});
    expect(activity.events.map((e) => e.action)).to.include('run.interrupted');
  });

  it('a live executor renews its lease, so a long step is not mistaken for a crash', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const notes = countingTool('notes_add', 'write', { gate });
    const h = automationsHarness({ tools: [notes.tool], leaseMs: 150 });
    const automation = await h.automation({ prompt: '/call notes_add {"text":"long"}', tools: ['notes_add'] });
    await h.armApproved(automation.id);
    const [runId] = (await h.tick.execute()).runIds;
    const executing = h.runQueued();
    await until(() => notes.calls.length === 1, 'the call to start');
    const leaseBefore = (await h.runs.find(runId!))!.run.lease!.until;
    h.clock.advance(100);
    await until(async () => (await h.runs.find(runId!))!.run.lease!.until > leaseBefore, 'the lease to be renewed');
    await h.sweep.execute();
    expect((await h.runs.find(runId!))!.run.state).to.equal('running');
    release();
    await executing;
    expect((await h.getRun.execute({ principal: ada, runId: runId! })).state).to.equal('succeeded');
  });
});

async function expectConflict(promise: Promise<unknown>): Promise<void> {
  try {
    await promise;
  } catch (error) {
    expect((error as { code?: string }).code).to.equal('conflict');
    return;
  }
  expect.fail('expected a conflict');
}
