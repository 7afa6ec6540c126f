import { expect } from 'chai';
import { ada, countingTool } from '../../support/guard-harness.js';
import { automationsHarness } from '../../support/automations-harness.js';

describe('ResumeRun: a run waiting for approval goes on once answered', () => {
  it('waits while its call is unanswered, goes back to the queue when approved, and makes the call once', async () => {
    const notes = countingTool('notes_add', 'write');
    const h = automationsHarness({ tools: [notes.tool] });
    const automation = await h.automation({ prompt: '/call notes_add {"text":"later"}' });
    const run = await h.runNow.execute({ principal: ada, automationId: automation.id, venue: 'wire' });
    await h.runQueued();
    expect((await h.getRun.execute({ principal: ada, runId: run.id })).state).to.equal('waiting');
    const [parked] = (await h.list.execute({ principal: ada })).approvals;

    await h.decide.execute({ principal: ada, approvalId: parked!.id, approve: true });
    expect((await h.getRun.execute({ principal: ada, runId: run.id })).state).to.equal('queued');
    expect(h.dispatcher.dispatched).to.deep.equal([run.id]);
    await h.runQueued();
    expect((await h.getRun.execute({ principal: ada, runId: run.id })).state).to.equal('succeeded');
    expect(notes.calls).to.have.length(1);
  });

  it('goes on after a denial too, without the call', async () => {
    const notes = countingTool('notes_add', 'write');
    const h = automationsHarness({ tools: [notes.tool] });
    const automation = await h.automation({ prompt: '/call notes_add {"text":"never"}' });
    const run = await h.runNow.execute({ principal: ada, automationId: automation.id, venue: 'wire' });
    await h.runQueued();
    const [parked] = (await h.list.execute({ principal: ada })).approvals;
    await h.decide.execute({ principal: ada, approvalId: parked!.id, approve: false });
    await h.runQueued();
    expect((await h.getRun.execute({ principal: ada, runId: run.id })).state).to.not.equal('waiting');
    expect(notes.calls).to.have.length(0);
  });
});
