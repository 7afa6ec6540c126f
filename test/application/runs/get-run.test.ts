import { expect } from 'chai';
import { NotFound } from '../../../domain/errors.js';
import { isToolPart } from '../../../domain/threads/ui-message.js';
import { ada, countingTool } from '../../support/guard-harness.js';
import { automationsHarness } from '../../support/automations-harness.js';

const grace = { subject: 'grace', kind: 'user' };

describe('GetRun: one run, with what it said and did', () => {
  it('shows a run’s attempts and transcript: the call it made and its answer; no previews, no webhook', async () => {
    const notes = countingTool('notes_list', 'read');
    const h = automationsHarness({ tools: [notes.tool] });
    const automation = await h.automation({ prompt: '/call notes_list {"tag":"work"}', tools: ['notes_list'] });
    const run = await h.runNow.execute({ principal: ada, automationId: automation.id, venue: 'wire' });
    await h.runQueued();

    const detail = await h.getRun.execute({ principal: ada, runId: run.id });
    expect(detail).to.deep.include({ id: run.id, state: 'succeeded', previews: [], webhook: null });
    expect(detail.attempts.map((a) => [a.number, a.outcome])).to.deep.equal([[1, 'succeeded']]);
    const call = detail.messages.flatMap((m) => m.parts).find(isToolPart);
    expect(call).to.deep.include({ type: 'tool-notes_list', state: 'output-available', input: { tag: 'work' } });
  });

  it('is not found for someone else’s run, or a run that never was: never a hint that it exists', async () => {
    const h = automationsHarness({ tools: [] });
    const automation = await h.automation({ prompt: 'hello' });
    const run = await h.runNow.execute({ principal: ada, automationId: automation.id, venue: 'wire' });
    for (const attempt of [
      h.getRun.execute({ principal: grace, runId: run.id }),
      h.getRun.execute({ principal: ada, runId: 'run_nope' }),
    ]) {
      const error = await attempt.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(NotFound);
    }
  });
});
