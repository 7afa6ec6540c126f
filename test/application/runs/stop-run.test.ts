import { expect } from 'chai';
import { NotFound } from '../../../domain/errors.js';
import { ada } from '../../support/guard-harness.js';
import { automationsHarness } from '../../support/automations-harness.js';

const grace = { subject: 'grace', kind: 'user' };

describe('StopRun: a person stops their run', () => {
  it('stops a run that has not begun at once: cancelled, said so in the audit, and never executed', async () => {
    const h = automationsHarness({ tools: [] });
    const automation = await h.automation({ prompt: 'hello' });
    const run = await h.runNow.execute({ principal: ada, automationId: automation.id, venue: 'wire' });
    const stopped = await h.stop.execute({ principal: ada, runId: run.id, wait: false });
    expect(stopped).to.deep.include({ id: run.id, state: 'cancelled', ending: 'stopped' });
    await h.runQueued();
    expect((await h.getRun.execute({ principal: ada, runId: run.id })).messages).to.deep.equal([]);
    const events = (await h.auditLog.list('ada', { limit: 100 })).events.map((e) => e.action);
    expect(events).to.include('run.stopped');
  });

  it('leaves an ended run as it ended', async () => {
    const h = automationsHarness({ tools: [] });
    const automation = await h.automation({ prompt: 'hello' });
    const run = await h.runNow.execute({ principal: ada, automationId: automation.id, venue: 'wire' });
    await h.runQueued();
    expect(await h.stop.execute({ principal: ada, runId: run.id })).to.deep.include({ state: 'succeeded' });
  });

  it('cannot stop someone else’s run: not found, and it goes on', async () => {
    const h = automationsHarness({ tools: [] });
    const automation = await h.automation({ prompt: 'hello' });
    const run = await h.runNow.execute({ principal: ada, automationId: automation.id, venue: 'wire' });
    const error = await h.stop.execute({ principal: grace, runId: run.id }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(NotFound);
    await h.runQueued();
    expect((await h.getRun.execute({ principal: ada, runId: run.id })).state).to.equal('succeeded');
  });
});
