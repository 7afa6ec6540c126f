import { expect } from 'chai';
import { ada, bob, countingTool, expectAdasOnlyGrant } from '../../support/guard-harness.js';
import { automationsHarness } from '../../support/automations-harness.js';
import { Grant } from '../../../domain/guard/grant.js';
import { GrantBook } from '../../../application/guard/grant-book.js';
import type { StoredGrant } from '../../../domain/guard/grant.js';

describe('Automations: arming asks for standing grants; runs act away with them', () => {
  it('arming asks for each tool that would ask; approving gives the owner a standing grant a run then uses', async () => {
    const notes = countingTool('notes_add', 'write');
    const lookup = countingTool('notes_list', 'read');
    const h = automationsHarness({ tools: [notes.tool, lookup.tool] });
    const automation = await h.automation({ prompt: '/call notes_add {"text":"from the schedule"}', tools: ['notes_add', 'notes_list'] });
    expect(automation.id).to.match(/^atm_/);
    expect(automation.armed).to.equal(false);

    const { asks, automation: armed } = await h.arm.execute({ principal: ada, automationId: automation.id });
    expect(armed.armed).to.equal(true);
    expect(asks.map((a) => a.tool)).to.deep.equal(['notes_add']);
    const listed = await h.list.execute({ principal: ada });
    expect(listed.approvals.map((a) => a.id)).to.deep.equal([asks[0]!.approvalId]);
    expect(listed.approvals[0]!.request).to.deep.include({ venue: 'automation', presence: 'away', automationId: automation.id });

    await h.decide.execute({ principal: ada, approvalId: asks[0]!.approvalId, approve: true });
    await expectAdasOnlyGrant(h, {
      tool: 'notes_add',
      scope: 'tool',
      duration: 'standing',
      origin: { kind: 'automation', automationId: automation.id, approvalId: asks[0]!.approvalId },
    });

    h.clock.advance(61_000);
    const { runIds } = await h.tick.execute();
    expect(runIds).to.have.length(1);
    await h.runQueued();
    const run = await h.getRun.execute({ principal: ada, runId: runIds[0]! });
    expect(run.state).to.equal('succeeded');
    expect(run.startedBy).to.equal('porter:scheduler');
    expect(notes.calls).to.deep.equal([{ text: 'from the schedule' }]);
    const tool = run.messages.flatMap((m) => m.parts).find((p) => p.type === 'tool-notes_add') as { state: string } | undefined;
    expect(tool?.state).to.equal('output-available');
  });

  it('arming again answers the asks still waiting instead of asking twice', async () => {
    const h = automationsHarness({ tools: [countingTool('notes_add', 'write').tool] });
    const automation = await h.automation({ prompt: 'x', tools: ['notes_add'] });
    const first = await h.arm.execute({ principal: ada, automationId: automation.id });
    const second = await h.arm.execute({ principal: ada, automationId: automation.id });
    expect(second.asks).to.deep.equal(first.asks);
    expect((await h.list.execute({ principal: ada })).approvals).to.have.length(1);
  });

  it("a denial of the automation's standing-grant ask disarms it within the same decision", async () => {
    const h = automationsHarness({ tools: [countingTool('notes_add', 'write').tool, countingTool('notes_clear', 'destructive').tool] });
    const automation = await h.automation({ prompt: 'x', tools: ['notes_add', 'notes_clear'] });
    const { asks } = await h.arm.execute({ principal: ada, automationId: automation.id });
    expect(asks).to.have.length(2);

    await h.decide.execute({ principal: ada, approvalId: asks[1]!.approvalId, approve: false });
    // No tick, no poll: the decision itself disarmed it.
    const loaded = await h.automations.find(automation.id);
    expect(loaded!.automation.armed).to.equal(false);
    const other = await h.get.execute({ principal: ada, approvalId: asks[0]!.approvalId });
    expect(other).to.deep.include({ state: 'expired', outcome: { kind: 'expired', reason: 'dropped' } });
    expect((await h.listGrants.execute({ principal: ada })).grants).to.have.length(0);
    h.clock.advance(61_000);
    expect((await h.tick.execute()).runIds).to.deep.equal([]);
  });

  it('a run uses only standing grants: a session grant of a chat does not let an away call through', async () => {
    const notes = countingTool('notes_add', 'write');
    const h = automationsHarness({ tools: [notes.tool] });
    await new GrantBook(h.store.records<StoredGrant>('grants')).save(
      Grant.create({
        id: 'grt_session00001',
        subject: 'ada',
        tool: 'notes_add',
        scope: 'tool',
        inputDigest: null,
        duration: 'session',
        session: 'thr_chat',
        evidence: null,
        origin: { kind: 'approval', approvalId: 'apr_x' },
        createdAt: h.clock.now().toISOString(),
      }),
    );
    const automation = await h.automation({ prompt: '/call notes_add {"text":"away"}' });
    await h.arm.execute({ principal: ada, automationId: automation.id });
    const { runIds } = await h.tick.execute();
    await h.runQueued();

    const waiting = await h.getRun.execute({ principal: ada, runId: runIds[0]! });
    expect(waiting.state).to.equal('waiting');
    expect(notes.calls).to.have.length(0);
    const parked = (await h.list.execute({ principal: ada })).approvals;
    expect(parked).to.have.length(1);
    expect(parked[0]!.request).to.deep.include({ runId: runIds[0], venue: 'automation', presence: 'away' });

    // The owner answers in /approvals: the run goes on and the call runs exactly once.
    await h.decide.execute({ principal: ada, approvalId: parked[0]!.id, approve: true });
    await h.runQueued();
    const done = await h.getRun.execute({ principal: ada, runId: runIds[0]! });
    expect(done.state).to.equal('succeeded');
    expect(notes.calls).to.deep.equal([{ text: 'away' }]);
    expect((await h.get.execute({ principal: ada, approvalId: parked[0]!.id })).state).to.equal('executed');
  });

  it('refuses anonymous owners, unknown tools, bad cron, unknown timezones and unregistered sources', async () => {
    const h = automationsHarness({ tools: [] });
    await expectCode(
      h.automation({ prompt: 'x', owner: { subject: 'porter:anon:anon_1', kind: 'anonymous', anonymous: true } }),
      'forbidden',
    );
    await expectCode(h.automation({ prompt: 'x', tools: ['nope'] }), 'validation');
    await expectCode(h.automation({ prompt: 'x', cron: 'every day' }), 'validation');
    await expectCode(h.automation({ prompt: 'x', cron: '0 9 * * *', timezone: 'Mars/Olympus' }), 'validation');
    await expectCode(h.automation({ prompt: 'x', source: 'github' }), 'validation');
  });

  it("never reveals someone else's automation or run", async () => {
    const h = automationsHarness({ tools: [] });
    const automation = await h.automation({ prompt: 'hello' });
    await expectCode(h.arm.execute({ principal: bob, automationId: automation.id }), 'not-found');
    await h.arm.execute({ principal: ada, automationId: automation.id });
    const { runIds } = await h.tick.execute();
    await expectCode(h.getRun.execute({ principal: bob, runId: runIds[0]! }), 'not-found');
    await expectCode(h.stop.execute({ principal: bob, runId: runIds[0]! }), 'not-found');
    expect((await h.listRuns.execute({ principal: bob })).runs).to.deep.equal([]);
    expect((await h.listRuns.execute({ principal: ada, automationId: automation.id })).runs.map((r) => r.id)).to.deep.equal(runIds);
  });
});

export async function expectCode(promise: Promise<unknown>, code: string): Promise<void> {
  try {
    await promise;
  } catch (error) {
    expect((error as { code?: string }).code, (error as Error).message).to.equal(code);
    return;
  }
  expect.fail(`expected a ${code} error`);
}
