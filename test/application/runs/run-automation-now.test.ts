import { expect } from 'chai';
import { NotFound } from '../../../domain/errors.js';
import { ada, countingTool } from '../../support/guard-harness.js';
import { automationsHarness } from '../../support/automations-harness.js';

const grace = { subject: 'grace', kind: 'user' };

describe('RunAutomationNow: Run now, armed or not', () => {
  it('queues a real run of a disarmed automation, started by the owner where they asked, with the input after the task', async () => {
    const notes = countingTool('notes_list', 'read');
    const h = automationsHarness({ tools: [notes.tool] });
    const automation = await h.automation({ prompt: '/call notes_list {}', tools: ['notes_list'] });
    const run = await h.runNow.execute({ principal: ada, automationId: automation.id, venue: 'mcp', input: 'from the agent' });
    expect(run).to.deep.include({ state: 'queued', startedBy: 'ada', dryRun: false, cause: { kind: 'run-now', venue: 'mcp' } });
    expect(h.dispatcher.dispatched, 'handed to an executor').to.deep.equal([run.id]);
    await h.runQueued();
    expect((await h.getRun.execute({ principal: ada, runId: run.id })).state).to.equal('succeeded');
    expect(notes.calls).to.have.length(1);
    expect((await h.auditLog.list('ada', { limit: 100 })).events.map((e) => e.action)).to.deep.equal(['run.run-now']);
  });

  it('is not found for someone else’s automation: nothing is queued', async () => {
    const h = automationsHarness({ tools: [] });
    const automation = await h.automation({ prompt: 'hello' });
    const error = await h.runNow.execute({ principal: grace, automationId: automation.id, venue: 'wire' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(NotFound);
    expect(h.dispatcher.dispatched).to.deep.equal([]);
  });
});
