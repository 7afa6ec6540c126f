import { expect } from 'chai';
import { Approval, EXECUTION_LEASE_MS, HOLD_LEASE_MS, INTERRUPTED_ERROR } from '../../../domain/guard/approval.js';
import { at, ruledCall, T0 } from '../../support/guard-builders.js';
import { approvalView } from '../../../application/guard/approval-view.js';

const call = ruledCall();
const parked = () => Approval.park({ id: 'apr_1', call, preview: 'add', now: T0, expiresAt: at(24 * 3600_000) });

describe('Approval leases (recovery after a crash)', () => {
  it('lets a single decision through once a batch hold has lapsed, not before', () => {
    const held = parked().holdFor('batch-that-died', T0);
    expect(() => held.approve(at(1_000), null)).to.throw(/already decided/);
    expect(held.approve(at(HOLD_LEASE_MS), null).stateAt(at(HOLD_LEASE_MS))).to.equal('approved');
  });

  it('ends an execution whose executor died as executed and interrupted, never runnable again', () => {
    const executing = parked().approve(T0, null).startExecution(T0);
    expect(approvalView(executing, at(EXECUTION_LEASE_MS - 1))).to.deep.equal({ id: 'apr_1', state: 'pending' });
    const view = approvalView(executing, at(EXECUTION_LEASE_MS));
    expect(view.state).to.equal('executed');
    expect(view.outcome).to.deep.include({ kind: 'executed', ok: false });
    expect(executing.stateAt(at(EXECUTION_LEASE_MS))).to.not.equal('approved');
  });

  it('reads an unrenewed execution as interrupted within a minute', () => {
    expect(EXECUTION_LEASE_MS).to.be.at.most(60_000);
    const executing = parked().approve(T0, null).startExecution(T0);
    expect(approvalView(executing, at(60_000))).to.deep.include({
      state: 'executed',
      outcome: { kind: 'executed', ok: false, error: INTERRUPTED_ERROR },
    });
  });

  it('keeps a renewed execution pending however long the tool runs, and lapses a lease the heartbeat stopped renewing', () => {
    let executing = parked().approve(T0, null).startExecution(T0, 1_000);
    for (let beat = 1; beat <= 30; beat++) executing = executing.renewExecution(at(beat * 333), 1_000)!;
    expect(approvalView(executing, at(30 * 333 + 999))).to.deep.equal({ id: 'apr_1', state: 'pending' });
    expect(approvalView(executing, at(30 * 333 + 1_000)).state).to.equal('executed');
    expect(executing.renewExecution(at(30 * 333 + 1_000), 1_000), 'a lapsed lease is not renewed').to.equal(null);
  });

  it("records the executor's own outcome when it finishes after its lease lapsed", () => {
    const executing = parked().approve(T0, null).startExecution(T0, 1_000);
    const finished = executing.finish({ kind: 'executed', ok: true, output: { done: true } });
    expect(approvalView(finished, at(5_000))).to.deep.include({
      state: 'executed',
      outcome: { kind: 'executed', ok: true, output: { done: true } },
    });
  });

  it('lapses an execution stored before leases were renewed after its old fifteen minutes', () => {
    const props = parked().approve(T0, null).toPrimitives();
    const legacy = Approval.fromPrimitives({ ...props, state: 'executing', executingSince: T0 });
    expect(approvalView(legacy, at(15 * 60_000 - 1)).state).to.equal('pending');
    expect(approvalView(legacy, at(15 * 60_000)).state).to.equal('executed');
  });
});
