import { expect } from 'chai';
import { Approval } from '../../../domain/guard/approval.js';
import type { RuledCall } from '../../../domain/guard/tool-call.js';
import { at, ruledCall, T0 } from '../../support/guard-builders.js';

const call = ruledCall();
const parked = (over: Partial<RuledCall> = {}) =>
  Approval.park({ id: 'apr_1', call: { ...call, ...over }, preview: 'add', now: T0, expiresAt: at(60_000) });

describe('Approval.expire (only what may still lead to a call ends)', () => {
  it('expires a pending approval and one approved whose call has not started', () => {
    const pending = parked().expire(at(1), 'dropped');
    expect(pending?.stateAt(at(1))).to.equal('expired');
    expect(pending?.outcome).to.deep.equal({ kind: 'expired', reason: 'dropped' });
    expect(parked().approve(T0, null).expire(at(1), 'invalidated')?.outcome).to.deep.equal({ kind: 'expired', reason: 'invalidated' });
  });

  it('leaves alone what was denied, is running, ran, or already timed out', () => {
    expect(parked().deny(T0).expire(at(1), 'dropped')).to.equal(null);
    const executing = parked().approve(T0, null).startExecution(T0);
    expect(executing.expire(at(1), 'dropped')).to.equal(null);
    expect(executing.finish({ kind: 'executed', ok: true, output: 1 }).expire(at(1), 'dropped')).to.equal(null);
    expect(parked().expire(at(60_000), 'dropped')).to.equal(null);
    expect(parked().expire(at(1), 'dropped')!.expire(at(2), 'invalidated')).to.equal(null);
  });

  it('leaves an approved arming ask alone: its standing grant was made', () => {
    const arming = parked({ automation: { automationId: 'aut_1', name: 'Nightly' }, venue: 'automation', presence: 'away' });
    expect(arming.asksForStandingGrant).to.equal(true);
    expect(arming.expire(at(1), 'dropped')?.stateAt(at(1))).to.equal('expired');
    expect(arming.approve(T0, null).expire(at(1), 'dropped')).to.equal(null);
  });

  it('tells a late decider an execution under way was approved', () => {
    const executing = parked().approve(T0, null).startExecution(T0);
    expect(executing.decidedAs(at(1))).to.equal('approved');
    expect(() => executing.deny(at(1))).to.throw(/already decided \(approved\)/);
    expect(parked().decidedAs(at(60_000))).to.equal('expired');
  });
});
