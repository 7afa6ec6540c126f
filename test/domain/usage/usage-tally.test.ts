import { expect } from 'chai';
import { UsageTally } from '../../../domain/usage/usage-tally.js';
import type { Budget } from '../../../domain/usage/budget.js';
import { breakerBudget, DEFAULT_BREAKERS } from '../../../domain/usage/budget.js';

const at = (seconds: number) => new Date(Date.parse('2026-03-01T10:00:00.000Z') + seconds * 1000).toISOString();
const turns: Budget = { name: 'turns', max: 3, windowSeconds: 600 };

describe('UsageTally: a rolling window of buckets', () => {
  it('charges while units fit and refuses the one that does not, saying when the oldest frees', () => {
    let tally = UsageTally.empty('turns', 'ada');
    for (const second of [0, 30, 60]) {
      const charged = tally.charge(turns, 1, at(second));
      expect(charged).to.be.instanceOf(UsageTally);
      tally = charged as UsageTally;
    }
    const refused = tally.charge(turns, 1, at(61));
    expect(refused).to.deep.equal({ used: 3, retryAfterSeconds: 600 + 10 - 61 });
    // Never earlier than a true rolling window: at 600 s the first unit still counts, past its bucket it does not.
    expect(tally.used(turns, at(600))).to.equal(3);
    expect(tally.used(turns, at(610))).to.equal(2);
    expect(tally.charge(turns, 1, at(610))).to.be.instanceOf(UsageTally);
  });

  it('keeps one bucket per sixtieth of the window however much is spent', () => {
    let tally = UsageTally.empty('tokens', 'ada');
    const tokens: Budget = { name: 'tokens', max: 1_000_000, windowSeconds: 60 };
    for (let i = 0; i < 1000; i++) tally = tally.record(tokens, 5, at(i / 100));
    expect(tally.toPrimitives().buckets.length).to.be.at.most(11);
    expect(tally.used(tokens, at(10))).to.equal(5000);
    expect(tally.refusalAt(tokens, at(10))).to.equal(null);
    expect(tally.record(tokens, 1_000_000, at(10)).refusalAt(tokens, at(10))?.used).to.equal(1_005_000);
  });

  it('gives back a charge newest first, so a refused piece of work spends nothing', () => {
    let tally = UsageTally.empty('turns', 'ada').charge(turns, 2, at(0)) as UsageTally;
    tally = tally.charge(turns, 1, at(30)) as UsageTally;
    const refunded = tally.refund(turns, 1, at(31));
    expect(refunded.used(turns, at(31))).to.equal(2);
    expect(refunded.toPrimitives().buckets).to.deep.equal(tally.toPrimitives().buckets.slice(0, 1));
    expect(tally.refund(turns, 5, at(31)).used(turns, at(31))).to.equal(0);
  });

  it('shows figures: used, remaining, when a unit frees; a run breaker never frees', () => {
    const tally = (UsageTally.empty('turns', 'ada').charge(turns, 3, at(0)) as UsageTally).figures(turns, at(100));
    expect(tally).to.deep.equal({ used: 3, max: 3, windowSeconds: 600, remaining: 0, resetsAt: at(610), retryAfter: 510 });
    const writes = breakerBudget(DEFAULT_BREAKERS, 'writesPerRun')!;
    const run = UsageTally.empty('writesPerRun', 'run_1').charge(writes, 20, at(0)) as UsageTally;
    expect(run.charge(writes, 1, at(999_999))).to.deep.equal({ used: 20, retryAfterSeconds: null });
    expect(breakerBudget({ ...DEFAULT_BREAKERS, writesPerRun: false }, 'writesPerRun')).to.equal(null);
  });

  it('reserves as many units as fit (at least one) until its bucket ends, and takes back what was not used', () => {
    const perMinute = breakerBudget({ ...DEFAULT_BREAKERS, toolCallsPerMinute: 5 }, 'toolCallsPerMinute')!;
    const first = UsageTally.empty('toolCallsPerMinute', 'ada').reserve(perMinute, 3, at(0.25));
    expect(first).to.deep.include({ granted: 3, bucket: Date.parse(at(0)), until: Date.parse(at(1)) });
    const second = (first as { tally: UsageTally }).tally.reserve(perMinute, 4, at(0.5));
    expect(second).to.deep.include({ granted: 2 });
    const full = (second as { tally: UsageTally }).tally;
    expect(full.reserve(perMinute, 1, at(0.75))).to.deep.equal({ used: 5, retryAfterSeconds: 61 });
    // Two of the first three were never used: given back, they fit again.
    const back = full.giveBack(perMinute, Date.parse(at(0)), 2, at(1.5));
    expect(back.used(perMinute, at(1.5))).to.equal(3);
    expect(full.giveBack(perMinute, Date.parse(at(0)), 9, at(1.5)).used(perMinute, at(1.5))).to.equal(0);
  });
});
