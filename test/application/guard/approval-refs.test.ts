import { expect } from 'chai';
import { ada, bob, countingTool, guardHarness, parkedId } from '../../support/guard-harness.js';
import { codeOf } from '../../support/outcomes.js';

const signal = () => new AbortController().signal;

function parked(result: Awaited<ReturnType<ReturnType<typeof guardHarness>['call']>>) {
  if (result.status !== 'parked') throw new Error(`expected the call to park, it ${result.status}`);
  return result.parked;
}

describe('Approvals named by the parked tool-call id (spec §2)', () => {
  it('reads, decides and shows the execution of an approval by its tool-call id as by its apr_ id', async () => {
    const add = countingTool('notes_add', 'write');
    const h = guardHarness({ tools: [add.tool] });
    const { approvalId, toolCallId } = parked(await h.call('notes_add', { text: 'milk' }));
    expect(toolCallId).to.not.equal(approvalId);
    expect(await h.get.execute({ principal: ada, approvalId: toolCallId })).to.deep.equal(
      await h.get.execute({ principal: ada, approvalId }),
    );

    const decided = await h.decide.execute({ principal: ada, approvalId: toolCallId, approve: true });
    expect(decided).to.deep.include({ id: approvalId, state: 'approved' });
    expect(
      await codeOf(h.decide.execute({ principal: ada, approvalId: toolCallId, approve: false })),
      'a second answer by either name',
    ).to.equal('conflict');
    expect(await codeOf(h.decide.execute({ principal: ada, approvalId, approve: false }))).to.equal('conflict');

    await h.executeApproved.forThread('thr_session1', { principal: ada, signal: signal() });
    const view = await h.get.execute({ principal: ada, approvalId: toolCallId });
    expect(view).to.deep.include({ id: approvalId, state: 'executed' });
    expect(add.calls).to.deep.equal([{ text: 'milk' }]);
  });

  it("is not-found for someone else's tool-call id, on read, decide and batch", async () => {
    const add = countingTool('notes_add', 'write');
    const h = guardHarness({ tools: [add.tool] });
    const { toolCallId } = parked(await h.call('notes_add', {}));
    expect(await codeOf(h.get.execute({ principal: bob, approvalId: toolCallId }))).to.equal('not-found');
    expect(await codeOf(h.decide.execute({ principal: bob, approvalId: toolCallId, approve: true }))).to.equal('not-found');
    expect(await codeOf(h.decideMany.execute({ principal: bob, approvalIds: [toolCallId], approve: true }))).to.equal('not-found');
    expect((await h.get.execute({ principal: ada, approvalId: toolCallId })).state, 'still pending for its owner').to.equal('pending');
  });

  it('is not-found for a name no approval can have (spaces, control characters, 257 characters)', async () => {
    const h = guardHarness({ tools: [countingTool('notes_add', 'write').tool] });
    for (const ref of ['call 1', 'call_\u0000', '', 'x'.repeat(257), 'calé']) {
      expect(await codeOf(h.get.execute({ principal: ada, approvalId: ref })), JSON.stringify(ref)).to.equal('not-found');
    }
  });

  it('decides a batch that mixes both names, once per approval, all or nothing', async () => {
    const add = countingTool('notes_add', 'write');
    const h = guardHarness({ tools: [add.tool] });
    const first = parked(await h.call('notes_add', { n: 1 }));
    const second = parked(await h.call('notes_add', { n: 2 }));
    const { approvals } = await h.decideMany.execute({
      principal: ada,
      approvalIds: [first.toolCallId, second.approvalId, first.approvalId, second.toolCallId],
      approve: true,
    });
    expect(approvals.map((a) => a.id)).to.deep.equal([first.approvalId, second.approvalId]);
    expect(approvals.every((a) => a.state === 'approved')).to.equal(true);

    const third = parked(await h.call('notes_add', { n: 3 }));
    expect(
      await codeOf(h.decideMany.execute({ principal: ada, approvalIds: [third.toolCallId, first.toolCallId], approve: false })),
    ).to.equal('conflict');
    expect((await h.get.execute({ principal: ada, approvalId: third.toolCallId })).state, 'nothing decided').to.equal('pending');
  });

  it("names the newest of the caller's approvals when a tool-call id parked twice; the apr_ id stays exact", async () => {
    const add = countingTool('notes_add', 'write');
    const h = guardHarness({ tools: [add.tool] });
    // A scripted model derives the id from the prompt: the same prompt in two threads repeats it.
    const older = parkedId(await h.call('notes_add', { text: 'a' }, { toolCallId: 'call_same', session: 'thr_one', threadId: 'thr_one' }));
    h.clock.advance(1_000);
    const newer = parkedId(await h.call('notes_add', { text: 'b' }, { toolCallId: 'call_same', session: 'thr_two', threadId: 'thr_two' }));
    const bobs = parkedId(
      await h.call('notes_add', { text: 'c' }, { toolCallId: 'call_same', principal: bob, session: 'thr_three', threadId: 'thr_three' }),
    );

    expect((await h.get.execute({ principal: ada, approvalId: 'call_same' })).id).to.equal(newer);
    expect((await h.get.execute({ principal: bob, approvalId: 'call_same' })).id, 'each person their own').to.equal(bobs);
    // Deciding it keeps naming the same approval: the rule does not depend on state.
    await h.decide.execute({ principal: ada, approvalId: 'call_same', approve: false });
    expect(await h.get.execute({ principal: ada, approvalId: 'call_same' })).to.deep.include({ id: newer, state: 'denied' });
    expect((await h.get.execute({ principal: ada, approvalId: older })).state).to.equal('pending');
    expect((await h.get.execute({ principal: bob, approvalId: bobs })).state).to.equal('pending');
  });

  it("follows the door's retry rule: a retry reuses the parked tool-call id, the third attempt parks a new one", async () => {
    const clear = countingTool('notes_clear', 'destructive');
    const h = guardHarness({ tools: [clear.tool] });
    const door = { venue: 'mcp' as const, session: 'ses_door1', threadId: undefined, reuseParked: true };
    const first = parked(await h.call('notes_clear', { all: true }, { ...door, toolCallId: 'call_door_1' }));
    const retry = parked(await h.call('notes_clear', { all: true }, { ...door, toolCallId: 'call_door_2' }));
    expect(retry).to.deep.include({ approvalId: first.approvalId, toolCallId: 'call_door_1' });

    await h.decide.execute({ principal: ada, approvalId: 'call_door_1', approve: true });
    const ran = await h.call('notes_clear', { all: true }, { ...door, toolCallId: 'call_door_3' });
    expect(ran.status).to.equal('ran');
    const third = parked(await h.call('notes_clear', { all: true }, { ...door, toolCallId: 'call_door_4' }));
    expect(third.approvalId).to.not.equal(first.approvalId);
    expect(third.toolCallId).to.equal('call_door_4');
    expect(await h.get.execute({ principal: ada, approvalId: 'call_door_1' })).to.deep.include({ id: first.approvalId, state: 'executed' });
    expect(await h.get.execute({ principal: ada, approvalId: 'call_door_4' })).to.deep.include({ id: third.approvalId, state: 'pending' });
    expect(clear.calls).to.have.length(1);
  });

  it('parks a call whose tool-call id cannot name an approval; its apr_ id still does', async () => {
    const h = guardHarness({ tools: [countingTool('notes_add', 'write').tool] });
    const id = parkedId(await h.call('notes_add', {}, { toolCallId: 'a model id with spaces' }));
    expect((await h.get.execute({ principal: ada, approvalId: id })).state).to.equal('pending');
    expect(await codeOf(h.get.execute({ principal: ada, approvalId: 'a model id with spaces' }))).to.equal('not-found');
  });
});
