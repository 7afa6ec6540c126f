import { expect } from 'chai';
import { ada } from '../../support/guard-harness.js';
import { automationsHarness } from '../../support/automations-harness.js';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import { ManualClock } from '../../support/manual-clock.js';
import { slotRunId } from '../../../application/scheduler/slot-run-id.js';
import { isIdOf } from '../../../domain/ids.js';

describe('The scheduler tick', () => {
  it('fires every due slot exactly once across three instances ticking at the same time', async () => {
    const clock = new ManualClock('2026-06-01T12:00:30.000Z');
    const store = new MemoryStore({ clock });
    const instances = ['a', 'b', 'c'].map((holder) => automationsHarness({ tools: [], store, holder }));
    for (const h of instances) h.clock.set('2026-06-01T12:00:30.000Z');
    const crons = ['* * * * *', '*/2 * * * *', '*/5 * * * *', '0 * * * *'];
    for (let i = 0; i < 24; i++) {
      const automation = await instances[0]!.automation({ prompt: `job ${i}`, cron: crons[i % crons.length]! });
      await instances[0]!.arm.execute({ principal: ada, automationId: automation.id });
    }
    const minute = async () => {
      const answers = await Promise.all(instances.flatMap((h) => [h.tick.execute(), h.tick.execute()]));
      return answers.flatMap((a) => a.runIds);
    };
    for (const h of instances) h.clock.set('2026-06-01T12:01:00.000Z');
    const first = await minute();
    expect(new Set(first).size).to.equal(first.length);
    expect(first).to.have.length(6); // only the every-minute ones fire at 12:01
    for (const h of instances) h.clock.set('2026-06-01T13:00:10.000Z');
    const onTheHour = await minute();
    expect(new Set(onTheHour).size).to.equal(onTheHour.length);
    expect(onTheHour).to.have.length(24);
    expect(await minute()).to.deep.equal([]);
    const all = await instances[1]!.listRuns.execute({ principal: ada, limit: 100 });
    expect(all.runs).to.have.length(30);
  });

  it('after a long outage a missed slot fires once, not a backlog', async () => {
    const h = automationsHarness({ tools: [] });
    h.clock.set('2026-06-01T12:00:00.000Z');
    const automation = await h.automation({ prompt: 'report', cron: '*/5 * * * *' });
    await h.arm.execute({ principal: ada, automationId: automation.id });
    expect((await h.tick.execute()).runIds).to.have.length(1);
    h.clock.set('2026-06-01T15:02:00.000Z'); // 36 slots missed
    const after = await h.tick.execute();
    expect(after.runIds).to.deep.equal([slotRunId(automation.id, new Date('2026-06-01T15:00:00.000Z'))]);
    expect((await h.tick.execute()).runIds).to.deep.equal([]);
  });

  it("does not fire a slot from before the automation was armed, and follows the schedule's timezone", async () => {
    const h = automationsHarness({ tools: [] });
    h.clock.set('2026-06-01T06:58:00.000Z');
    const automation = await h.automation({ prompt: 'good morning', cron: '0 9 * * *', timezone: 'Europe/Paris' });
    const { automation: armed } = await h.arm.execute({ principal: ada, automationId: automation.id });
    expect(armed.nextRunAt).to.equal('2026-06-01T07:00:00.000Z'); // 09:00 in Paris, summer time
    expect((await h.tick.execute()).runIds).to.deep.equal([]);
    h.clock.set('2026-06-01T07:00:20.000Z');
    const { runIds } = await h.tick.execute();
    expect(runIds).to.have.length(1);
    const run = await h.getRun.execute({ principal: ada, runId: runIds[0]! });
    expect(run.cause).to.deep.equal({ kind: 'schedule', slot: '2026-06-01T07:00:00.000Z' });
  });

  it('a disarmed automation stops firing; re-arming fires only slots after the new arming', async () => {
    const h = automationsHarness({ tools: [] });
    h.clock.set('2026-06-01T12:00:30.000Z');
    const automation = await h.automation({ prompt: 'x', cron: '* * * * *' });
    await h.arm.execute({ principal: ada, automationId: automation.id });
    await h.disarm.execute({ principal: ada, automationId: automation.id });
    h.clock.set('2026-06-01T12:05:30.000Z');
    expect((await h.tick.execute()).runIds).to.deep.equal([]);
    await h.arm.execute({ principal: ada, automationId: automation.id });
    expect((await h.tick.execute()).runIds).to.deep.equal([]);
    h.clock.set('2026-06-01T12:06:00.000Z');
    expect((await h.tick.execute()).runIds).to.have.length(1);
  });

  it('slot run ids are well-formed run ids, equal for equal slots and different otherwise', () => {
    const at = new Date('2026-06-01T12:00:00.000Z');
    const id = slotRunId('atm_01HZZZZZZZZZZZZZZZZZZZZZZZ', at);
    expect(isIdOf('run', id)).to.equal(true);
    expect(id).to.have.length('run_'.length + 26);
    expect(slotRunId('atm_01HZZZZZZZZZZZZZZZZZZZZZZZ', new Date(at))).to.equal(id);
    expect(slotRunId('atm_01HZZZZZZZZZZZZZZZZZZZZZZY', at)).to.not.equal(id);
    expect(slotRunId('atm_01HZZZZZZZZZZZZZZZZZZZZZZZ', new Date(at.getTime() + 60_000)) > id).to.equal(true);
  });

  it("POST /tick's use case refuses a wrong or missing bearer, and every bearer when no secret is set", async () => {
    const h = automationsHarness({ tools: [], tickSecret: 'the-tick-secret-0123' });
    for (const bearer of ['the-tick-secret-012', 'the-tick-secret-01234', '', null]) {
      try {
        await h.authorizedTick.execute({ bearer });
        expect.fail(`bearer ${String(bearer)} was accepted`);
      } catch (error) {
        expect((error as { code?: string }).code).to.equal('unauthorized');
      }
    }
    expect(await h.authorizedTick.execute({ bearer: 'the-tick-secret-0123' })).to.deep.equal({ runIds: [] });
    const unset = automationsHarness({ tools: [] });
    try {
      await unset.authorizedTick.execute({ bearer: 'anything-at-all-here' });
      expect.fail('accepted without a configured secret');
    } catch (error) {
      expect((error as { code?: string }).code).to.equal('unauthorized');
    }
  });
});
