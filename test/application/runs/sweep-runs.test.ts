import { expect } from 'chai';
import { ada, countingTool } from '../../support/guard-harness.js';
import { automationsHarness } from '../../support/automations-harness.js';
import type { InstanceLiveness } from '../../../ports/liveness.js';

describe('SweepRuns: no run is lost or left running', () => {
  it('hands a queued run whose hand-over was lost out again after five minutes, and it runs', async () => {
    const notes = countingTool('notes_list', 'read');
    const h = automationsHarness({ tools: [notes.tool] });
    const automation = await h.automation({ prompt: '/call notes_list {}', tools: ['notes_list'] });
    const run = await h.runNow.execute({ principal: ada, automationId: automation.id, venue: 'wire' });
    h.dispatcher.take(); // the hand-over is lost

    h.clock.advance(4 * 60_000);
    await h.sweep.execute();
    expect(h.dispatcher.take(), 'not yet: an executor may still take it').to.deep.equal([]);
    h.clock.advance(60_000);
    await h.sweep.execute();
    expect(h.dispatcher.dispatched).to.deep.equal([run.id]);
    await h.runQueued();
    expect((await h.getRun.execute({ principal: ada, runId: run.id })).state).to.equal('succeeded');
    expect(notes.calls).to.have.length(1);
  });

  it('retries a run whose executor died, when its retries allow: the attempt is interrupted and it is handed out again', async () => {
    const h = automationsHarness({ tools: [] });
    const automation = await h.automation({ prompt: 'hello', retry: { max: 1, backoffSeconds: 1 } });
    const run = await h.runNow.execute({ principal: ada, automationId: automation.id, venue: 'wire' });
    h.dispatcher.take();
    const loaded = (await h.runs.find(run.id))!;
    const now = h.clock.now().getTime();
    await h.runs.swap(loaded, loaded.run.begin('dead-instance', new Date(now).toISOString(), new Date(now + 60_000).toISOString())!);

    h.clock.advance(61_000);
    await h.sweep.execute();
    const swept = await h.getRun.execute({ principal: ada, runId: run.id });
    expect(swept.state).to.equal('queued');
    expect(swept.attempts.map((a) => a.outcome)).to.deep.equal(['interrupted']);
    expect(new Set(h.dispatcher.dispatched), 'handed out again (an executor claims it once)').to.deep.equal(new Set([run.id]));
    await h.runQueued();
    expect((await h.getRun.execute({ principal: ada, runId: run.id })).attempts.map((a) => a.outcome)).to.deep.equal([
      'interrupted',
      'succeeded',
    ]);
  });

  it("takes a dead instance's whole slot back in a few hand-overs, not one per run (with pg-boss each is a job insert the last run waits behind)", async () => {
    const RUNS = 64;
    // Every mark is held but the dead instance's (its session ended: it was killed).
    const liveness: InstanceLiveness = {
      holding: true,
      hold: async () => {},
      onLost: () => {},
      alive: async () => ({ keys: new Set(['instance-a']), isAlive: (holder) => holder !== 'dead-instance' }),
      release: async () => {},
    };
    const h = automationsHarness({ tools: [], liveness });
    const automation = await h.automation({ prompt: 'hello', retry: { max: 1, backoffSeconds: 1 } });
    const runIds: string[] = [];
    const now = h.clock.now().getTime();
    for (let i = 0; i < RUNS; i++) {
      const run = await h.runNow.execute({ principal: ada, automationId: automation.id, venue: 'wire' });
      const loaded = (await h.runs.find(run.id))!;
      const begun = loaded.run.begin('dead-instance', new Date(now).toISOString(), new Date(now + 60_000).toISOString(), true)!;
      expect(await h.runs.swap(loaded, begun)).to.not.equal(null);
      runIds.push(run.id);
    }
    h.dispatcher.take();
    const handOvers: string[][] = [];
    const dispatch = h.dispatcher.dispatch.bind(h.dispatcher);
    h.dispatcher.dispatch = (ids, at) => {
      handOvers.push([...ids]);
      return dispatch(ids, at);
    };

    // Well inside their leases: the gone mark alone tells.
    await h.sweep.watch();
    const swept = await Promise.all(runIds.map((runId) => h.getRun.execute({ principal: ada, runId })));
    expect(swept.map((run) => [run.state, run.attempts.map((attempt) => attempt.outcome)])).to.deep.equal(
      runIds.map(() => ['queued', ['interrupted']]),
    );
    expect(new Set(handOvers.flat()), 'every one handed out again').to.deep.equal(new Set(runIds));
    expect(handOvers.length, 'hand-overs for 64 runs').to.be.at.most(RUNS / 8);
  });
});
