import { expect } from 'chai';
import { ada, countingTool } from '../../support/guard-harness.js';
import { automationsHarness } from '../../support/automations-harness.js';

describe('ExecuteRun: a queued run is carried out once', () => {
  it('runs the task with the tools it was granted, saves the transcript and ends succeeded', async () => {
    const notes = countingTool('notes_list', 'read');
    const h = automationsHarness({ tools: [notes.tool] });
    const automation = await h.automation({ prompt: '/call notes_list {"tag":"home"}', tools: ['notes_list'] });
    const run = await h.runNow.execute({ principal: ada, automationId: automation.id, venue: 'wire' });

    await h.executor.execute(run.id);
    const detail = await h.getRun.execute({ principal: ada, runId: run.id });
    expect(detail).to.deep.include({ state: 'succeeded', failedCalls: 0 });
    expect(detail.startedAt).to.be.a('string');
    expect(detail.endedAt).to.be.a('string');
    expect(detail.messages.map((m) => m.role)).to.include('assistant');
    expect(notes.calls).to.have.length(1);
  });

  it('carries a run out once however often it is handed over', async () => {
    const notes = countingTool('notes_list', 'read');
    const h = automationsHarness({ tools: [notes.tool] });
    const automation = await h.automation({ prompt: '/call notes_list {}', tools: ['notes_list'] });
    const run = await h.runNow.execute({ principal: ada, automationId: automation.id, venue: 'wire' });
    await Promise.all([h.executor.execute(run.id), h.executor.execute(run.id)]);
    await h.executor.execute(run.id);
    expect(notes.calls).to.have.length(1);
    expect((await h.getRun.execute({ principal: ada, runId: run.id })).attempts).to.have.length(1);
  });

  it('parks a write it has no standing permission for: the run waits, the call is not made', async () => {
    const notes = countingTool('notes_add', 'write');
    const h = automationsHarness({ tools: [notes.tool] });
    const automation = await h.automation({ prompt: '/call notes_add {"text":"x"}' });
    const run = await h.runNow.execute({ principal: ada, automationId: automation.id, venue: 'wire' });
    await h.executor.execute(run.id);
    expect((await h.getRun.execute({ principal: ada, runId: run.id })).state).to.equal('waiting');
    expect(
      (await h.list.execute({ principal: ada })).approvals.map((a) => (a.request as { tool?: string } | undefined)?.tool),
    ).to.deep.equal(['notes_add']);
    expect(notes.calls).to.have.length(0);
  });

  it('does nothing for a run that does not exist', async () => {
    const h = automationsHarness({ tools: [] });
    await h.executor.execute('run_nope');
    expect((await h.listRuns.execute({ principal: ada })).runs).to.deep.equal([]);
  });
});
