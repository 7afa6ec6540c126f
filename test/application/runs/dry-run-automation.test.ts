import { expect } from 'chai';
import { NotFound } from '../../../domain/errors.js';
import { ada, countingTool } from '../../support/guard-harness.js';
import { automationsHarness } from '../../support/automations-harness.js';

const grace = { subject: 'grace', kind: 'user' };

describe('DryRunAutomation: try a task without changing anything', () => {
  it('previews the write instead of making it, never waits, and answers with the ended run', async () => {
    const add = countingTool('notes_add', 'write');
    const h = automationsHarness({ tools: [add.tool] });
    const automation = await h.automation({ prompt: '/call notes_add {"text":"summary"}', tools: ['notes_add'] });

    const run = await h.dryRun.execute({ principal: ada, automationId: automation.id });
    expect(run).to.deep.include({ state: 'succeeded', dryRun: true, cause: { kind: 'dry-run' }, webhook: null });
    expect(add.calls, 'the write did not').to.have.length(0);
    expect(run.previews.map((p) => [p.tool, p.risk])).to.deep.equal([['notes_add', 'write']]);
    expect((await h.list.execute({ principal: ada })).approvals, 'nothing parked').to.deep.equal([]);
    expect((await h.dryRun.execute({ principal: ada, automationId: automation.id })).id, 'each dry run is a run of its own').not.to.equal(
      run.id,
    );
  });

  it('is not found for someone else’s automation, and nothing runs', async () => {
    const add = countingTool('notes_add', 'write');
    const h = automationsHarness({ tools: [add.tool] });
    const automation = await h.automation({ prompt: '/call notes_add {"text":"x"}' });
    const error = await h.dryRun.execute({ principal: grace, automationId: automation.id }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(NotFound);
    expect((await h.listRuns.execute({ principal: ada })).runs).to.deep.equal([]);
  });
});
