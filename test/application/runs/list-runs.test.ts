import { expect } from 'chai';
import { ada, countingTool } from '../../support/guard-harness.js';
import { automationsHarness } from '../../support/automations-harness.js';

const grace = { subject: 'grace', kind: 'user' };

describe('ListRuns: a person’s runs, newest first', () => {
  it('lists only the caller’s runs, newest first, of one automation when asked', async () => {
    const h = automationsHarness({ tools: [] });
    const morning = await h.automation({ name: 'morning', prompt: 'hello' });
    const evening = await h.automation({ name: 'evening', prompt: 'hello' });
    const graces = await h.automation({ name: 'grace’s', prompt: 'hello', owner: grace });
    const first = await h.runNow.execute({ principal: ada, automationId: morning.id, venue: 'wire' });
    h.clock.advance(1_000);
    const second = await h.runNow.execute({ principal: ada, automationId: evening.id, venue: 'wire' });
    h.clock.advance(1_000);
    const third = await h.runNow.execute({ principal: ada, automationId: morning.id, venue: 'wire' });
    await h.runNow.execute({ principal: grace, automationId: graces.id, venue: 'wire' });

    const all = await h.listRuns.execute({ principal: ada });
    expect(all.runs.map((r) => r.id)).to.deep.equal([third.id, second.id, first.id]);
    expect(all.nextCursor).to.equal(null);
    const ofMorning = await h.listRuns.execute({ principal: ada, automationId: morning.id });
    expect(ofMorning.runs.map((r) => r.id)).to.deep.equal([third.id, first.id]);
    expect((await h.listRuns.execute({ principal: grace, automationId: morning.id })).runs, 'not Grace’s to see').to.deep.equal([]);
  });

  it('pages through a long list with its cursor, each run once', async () => {
    const h = automationsHarness({ tools: [] });
    const automation = await h.automation({ prompt: 'hello' });
    const started: string[] = [];
    for (let i = 0; i < 5; i++) {
      started.unshift((await h.runNow.execute({ principal: ada, automationId: automation.id, venue: 'wire' })).id);
      h.clock.advance(1_000);
    }
    const first = await h.listRuns.execute({ principal: ada, limit: 2 });
    const second = await h.listRuns.execute({ principal: ada, limit: 2, cursor: first.nextCursor });
    const third = await h.listRuns.execute({ principal: ada, limit: 2, cursor: second.nextCursor });
    expect([...first.runs, ...second.runs, ...third.runs].map((r) => r.id)).to.deep.equal(started);
    expect(third.nextCursor).to.equal(null);
  });

  it('shows each run as the wire does: its state and cause, never its prompt or input', async () => {
    const notes = countingTool('notes_list', 'read');
    const h = automationsHarness({ tools: [notes.tool] });
    const automation = await h.automation({ prompt: '/call notes_list {}', tools: ['notes_list'] });
    const run = await h.runNow.execute({ principal: ada, automationId: automation.id, venue: 'chat', input: 'a secret body' });
    await h.runQueued();
    const [listed] = (await h.listRuns.execute({ principal: ada })).runs;
    expect(listed).to.deep.include({ id: run.id, state: 'succeeded', owner: 'ada', cause: { kind: 'run-now', venue: 'chat' } });
    expect(listed).not.to.have.any.keys('prompt', 'input', 'lease');
  });
});
