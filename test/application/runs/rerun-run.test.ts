import { expect } from 'chai';
import { NotFound } from '../../../domain/errors.js';
import { ada, countingTool } from '../../support/guard-harness.js';
import { automationsHarness } from '../../support/automations-harness.js';

const grace = { subject: 'grace', kind: 'user' };

describe('RerunRun: the same run again', () => {
  it('starts a new run with the same task and input, started by the owner, naming the run it repeats, and it runs', async () => {
    const notes = countingTool('notes_list', 'read');
    const h = automationsHarness({ tools: [notes.tool] });
    const automation = await h.automation({ prompt: '/call notes_list {}', tools: ['notes_list'] });
    const first = await h.runNow.execute({ principal: ada, automationId: automation.id, venue: 'wire', input: 'order 42' });
    await h.runQueued();

    const again = await h.rerun.execute({ principal: ada, runId: first.id });
    expect(again.id).not.to.equal(first.id);
    expect(again).to.deep.include({ state: 'queued', startedBy: 'ada', cause: { kind: 'rerun', of: first.id }, dryRun: false });
    await h.runQueued();
    expect((await h.getRun.execute({ principal: ada, runId: again.id })).state).to.equal('succeeded');
    expect(notes.calls, 'each run made its call').to.have.length(2);
    expect((await h.runs.ownedBy('ada', again.id)).run.toPrimitives()).to.deep.include({ input: 'order 42' });
  });

  it('cannot rerun someone else’s run: not found, and nothing starts', async () => {
    const h = automationsHarness({ tools: [] });
    const automation = await h.automation({ prompt: 'hello' });
    const run = await h.runNow.execute({ principal: ada, automationId: automation.id, venue: 'wire' });
    const error = await h.rerun.execute({ principal: grace, runId: run.id }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(NotFound);
    expect((await h.listRuns.execute({ principal: ada })).runs).to.have.length(1);
  });
});
