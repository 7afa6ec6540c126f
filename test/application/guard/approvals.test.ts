import { expect } from 'chai';
import { ada, bob, countingTool, guardHarness, parkedId } from '../../support/guard-harness.js';
import type { Approval } from '../../../domain/guard/approval.js';
import { codeOf } from '../../support/outcomes.js';
import { eventually } from '../../support/eventually.js';

const signal = () => new AbortController().signal;

describe('Approvals', () => {
  it('shows a parked call with its request while pending', async () => {
    const add = countingTool('notes_add', 'write');
    const h = guardHarness({ tools: [{ ...add.tool, preview: (input) => `Add “${(input as { text: string }).text}”` }] });
    const id = parkedId(await h.call('notes_add', { text: 'milk' }));
    const view = await h.get.execute({ principal: ada, approvalId: id });
    expect(view).to.deep.include({ id, state: 'pending' });
    expect(view.request).to.deep.include({ tool: 'notes_add', preview: 'Add “milk”', risk: 'write', threadId: 'thr_session1' });
  });

  it("answers not-found for someone else's approval, on read and on decide", async () => {
    const add = countingTool('notes_add', 'write');
    const h = guardHarness({ tools: [add.tool] });
    const id = parkedId(await h.call('notes_add', {}));
    expect(await codeOf(h.get.execute({ principal: bob, approvalId: id }))).to.equal('not-found');
    expect(await codeOf(h.decide.execute({ principal: bob, approvalId: id, approve: true }))).to.equal('not-found');
    expect((await h.list.execute({ principal: bob })).approvals).to.have.length(0);
  });

  it('runs an approved call exactly once when fifty executors race', async () => {
    const add = countingTool('notes_add', 'write');
    const h = guardHarness({ tools: [add.tool] });
    const id = parkedId(await h.call('notes_add', { text: 'once' }));
    await h.decide.execute({ principal: ada, approvalId: id, approve: true });
    const results = await Promise.all(
      Array.from({ length: 50 }, () => h.executeApproved.execute({ approvalId: id, principal: ada, signal: signal() })),
    );
    expect(results.filter((r) => r !== null)).to.have.length(1);
    expect(add.calls).to.deep.equal([{ text: 'once' }]);
    const view = await h.get.execute({ principal: ada, approvalId: id });
    expect(view.state).to.equal('executed');
    expect(view.outcome).to.deep.equal({ kind: 'executed', ok: true, output: { done: 'notes_add', input: { text: 'once' } } });
  });

  it('lets exactly one of fifty concurrent approvals win; the rest are conflicts', async () => {
    const add = countingTool('notes_add', 'write');
    const h = guardHarness({ tools: [add.tool] });
    const id = parkedId(await h.call('notes_add', {}));
    const codes = await Promise.all(
      Array.from({ length: 50 }, () => codeOf(h.decide.execute({ principal: ada, approvalId: id, approve: true }))),
    );
    expect(codes.filter((c) => c === 'resolved')).to.have.length(1);
    expect(codes.filter((c) => c === 'conflict')).to.have.length(49);
    await h.executeApproved.forThread('thr_session1', { principal: ada, signal: signal() });
    await h.executeApproved.forThread('thr_session1', { principal: ada, signal: signal() });
    expect(add.calls).to.have.length(1);
  });

  it('keeps a denial: the call never runs and a later approve is a conflict', async () => {
    const add = countingTool('notes_add', 'write');
    const h = guardHarness({ tools: [add.tool] });
    const id = parkedId(await h.call('notes_add', {}));
    const denied = await h.decide.execute({ principal: ada, approvalId: id, approve: false });
    expect(denied).to.deep.include({ state: 'denied', outcome: { kind: 'denied' } });
    expect(await codeOf(h.decide.execute({ principal: ada, approvalId: id, approve: true }))).to.equal('conflict');
    expect(await h.executeApproved.execute({ approvalId: id, principal: ada, signal: signal() })).to.equal(null);
    expect(add.calls).to.have.length(0);
  });

  it('reads pending without request while the approved call executes (the resume window), then executed', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = countingTool('notes_add', 'write', { gate });
    const h = guardHarness({ tools: [slow.tool] });
    const id = parkedId(await h.call('notes_add', {}));
    await h.decide.execute({ principal: ada, approvalId: id, approve: true });
    expect((await h.get.execute({ principal: ada, approvalId: id })).state).to.equal('approved');
    const running = h.executeApproved.execute({ approvalId: id, principal: ada, signal: signal() });
    expect(await eventually(() => slow.calls.length === 1), 'the tool is running').to.equal(true);
    expect(await h.get.execute({ principal: ada, approvalId: id })).to.deep.equal({ id, state: 'pending' });
    release();
    await running;
    expect((await h.get.execute({ principal: ada, approvalId: id })).state).to.equal('executed');
  });

  it('expires an unanswered approval: not listed, reads expired, cannot be decided', async () => {
    const add = countingTool('notes_add', 'write');
    const h = guardHarness({ tools: [add.tool] });
    const id = parkedId(await h.call('notes_add', {}));
    h.clock.advance(60 * 60 * 1000);
    expect((await h.list.execute({ principal: ada })).approvals).to.have.length(0);
    expect(await h.get.execute({ principal: ada, approvalId: id })).to.deep.include({
      state: 'expired',
      outcome: { kind: 'expired', reason: 'timeout' },
    });
    expect(await codeOf(h.decide.execute({ principal: ada, approvalId: id, approve: true }))).to.equal('conflict');
  });

  it('runs every approved call of a thread once, oldest first, on the next turn', async () => {
    const add = countingTool('notes_add', 'write');
    const h = guardHarness({ tools: [add.tool] });
    const first = parkedId(await h.call('notes_add', { n: 1 }));
    h.clock.advance(1000);
    const second = parkedId(await h.call('notes_add', { n: 2 }));
    const other = parkedId(await h.call('notes_add', { n: 3 }, { session: 'thr_other', threadId: 'thr_other' }));
    for (const id of [second, first, other]) await h.decide.execute({ principal: ada, approvalId: id, approve: true });
    const ran = await h.executeApproved.forThread('thr_session1', { principal: ada, signal: signal() });
    expect(ran.map((r) => r.loaded.approval.id)).to.deep.equal([first, second]);
    expect(add.calls).to.deep.equal([{ n: 1 }, { n: 2 }]);
  });

  describe('batch decisions', () => {
    it('decides all together', async () => {
      const add = countingTool('notes_add', 'write');
      const h = guardHarness({ tools: [add.tool] });
      const ids = [parkedId(await h.call('notes_add', { n: 1 })), parkedId(await h.call('notes_add', { n: 2 }))];
      const result = await h.decideMany.execute({ principal: ada, approvalIds: ids, approve: true });
      expect(result.approvals.map((a) => a.state)).to.deep.equal(['approved', 'approved']);
    });

    it('decides nothing when one of them was already decided', async () => {
      const add = countingTool('notes_add', 'write');
      const h = guardHarness({ tools: [add.tool] });
      const ids = [parkedId(await h.call('notes_add', { n: 1 })), parkedId(await h.call('notes_add', { n: 2 }))];
      await h.decide.execute({ principal: ada, approvalId: ids[1]!, approve: false });
      expect(await codeOf(h.decideMany.execute({ principal: ada, approvalIds: ids, approve: true }))).to.equal('conflict');
      expect((await h.get.execute({ principal: ada, approvalId: ids[0]! })).state).to.equal('pending');
    });

    it("decides nothing when one id is someone else's", async () => {
      const add = countingTool('notes_add', 'write');
      const h = guardHarness({ tools: [add.tool] });
      const mine = parkedId(await h.call('notes_add', {}));
      const theirs = parkedId(await h.call('notes_add', {}, { principal: bob }));
      expect(await codeOf(h.decideMany.execute({ principal: ada, approvalIds: [mine, theirs], approve: true }))).to.equal('not-found');
      expect((await h.get.execute({ principal: ada, approvalId: mine })).state).to.equal('pending');
    });

    it('gives all of a contested set to exactly one of two racing batches', async () => {
      const add = countingTool('notes_add', 'write');
      const h = guardHarness({ tools: [add.tool] });
      const ids = await Promise.all([1, 2, 3, 4].map(async (n) => parkedId(await h.call('notes_add', { n }))));
      const outcomes = await Promise.all([
        codeOf(h.decideMany.execute({ principal: ada, approvalIds: ids, approve: true })),
        codeOf(h.decideMany.execute({ principal: ada, approvalIds: [...ids].reverse(), approve: false })),
      ]);
      expect(outcomes.filter((o) => o === 'resolved')).to.have.length(1);
      const states = await Promise.all(ids.map(async (id) => (await h.get.execute({ principal: ada, approvalId: id })).state));
      expect(new Set(states).size).to.equal(1);
      expect(states[0]).to.be.oneOf(['approved', 'denied']);
    });
  });

  it('runs decision hooks within the decision', async () => {
    const add = countingTool('notes_add', 'write');
    const seen: Array<[string, boolean]> = [];
    const h = guardHarness({
      tools: [add.tool],
      hooks: [{ onDecided: async (approval: Approval, approved: boolean) => void seen.push([approval.id, approved]) }],
    });
    const id = parkedId(await h.call('notes_add', {}));
    await h.decide.execute({ principal: ada, approvalId: id, approve: false });
    expect(seen).to.deep.equal([[id, false]]);
  });

  it("audits parking and deciding under the caller's subject", async () => {
    const add = countingTool('notes_add', 'write');
    const h = guardHarness({ tools: [add.tool] });
    const id = parkedId(await h.call('notes_add', {}));
    await h.decide.execute({ principal: ada, approvalId: id, approve: true, remember: { scope: 'tool', duration: 'standing' } });
    const actions = (await h.auditLog.list('ada', {})).events.map((e) => `${e.action}:${e.outcome}`);
    expect(actions).to.include.members(['approval.parked:pending', 'approval.decided:approved']);
  });
});
