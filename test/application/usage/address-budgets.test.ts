import { expect } from 'chai';
import { LimitReached } from '../../../domain/errors.js';
import { anonymousPrincipal } from '../../../domain/principal.js';
import { DEFAULT_BREAKERS, type Limits } from '../../../domain/usage/budget.js';
import type { UsageTallyPrimitives } from '../../../domain/usage/usage-tally.js';
import { UsageBook } from '../../../application/usage/usage-book.js';
import { TalliedUsageMeter } from '../../../application/usage/usage-meter.js';
import { GetUsage } from '../../../application/usage/get-usage.js';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import { ManualClock } from '../../support/manual-clock.js';

const LIMITS: Limits = { turns: { max: 5, windowSeconds: 3600 }, tokens: { max: 100, windowSeconds: 3600 } };

function meter(perAddress: Limits | null = LIMITS, limits: Limits = LIMITS) {
  const clock = new ManualClock('2026-03-01T10:00:00.000Z');
  const store = new MemoryStore({ clock });
  return new TalliedUsageMeter({
    book: new UsageBook(store.records<UsageTallyPrimitives>('usage')),
    clock,
    settings: { limits, perAddress, breakers: DEFAULT_BREAKERS },
  });
}

const refusalOf = (work: Promise<unknown>) =>
  work.then(
    () => null,
    (error: unknown) => error as LimitReached,
  );

describe('Budgets anonymous sessions share by address', () => {
  it('four new cookies from one address get five turns between them, not twenty; another address has its own', async () => {
    const usage = meter();
    const sessions = ['s1', 's2', 's3', 's4'].map((id) => anonymousPrincipal(id, '203.0.113.7'));
    let ran = 0;
    const refusals: LimitReached[] = [];
    for (const session of sessions)
      for (let i = 0; i < 5; i++) {
        const refused = await refusalOf(usage.charge(session, 'turns'));
        if (refused) refusals.push(refused);
        else ran++;
      }
    expect(ran).to.equal(5);
    expect(refusals).to.have.length(15);
    expect(refusals[0]!.details).to.deep.include({ budget: 'turns', sharedBy: 'address' });
    expect(refusals[0]!.retryAfterSeconds).to.be.within(3500, 3660);
    expect(refusals[0]!.message).to.match(/turns budget that anonymous sessions from this address share is spent/);
    // A refused charge spends nothing of the session's own budget either.
    expect((await usage.figures(sessions[3]!.subject)).turns).to.deep.include({ used: 0 });
    expect((await usage.addressFigures(sessions[3]!))!.turns).to.deep.include({ used: 5, remaining: 0 });
    await usage.charge(anonymousPrincipal('s5', '198.51.100.20'), 'turns');
  });

  it('tokens counted for one session are counted for its address: the next session of that address is refused up front', async () => {
    const usage = meter();
    await usage.record(anonymousPrincipal('s1', '203.0.113.7'), 'tokens', 150);
    const refused = await refusalOf(usage.ensureLeft(anonymousPrincipal('s2', '203.0.113.7'), 'tokens'));
    expect(refused).to.be.instanceOf(LimitReached);
    expect(refused!.details).to.deep.include({ budget: 'tokens', sharedBy: 'address' });
  });

  it('a session whose address is unknown shares the one budget of unknown addresses (fails closed)', async () => {
    const usage = meter({ turns: { max: 2, windowSeconds: 60 } });
    await usage.charge(anonymousPrincipal('s1'), 'turns');
    await usage.charge(anonymousPrincipal('s2'), 'turns');
    expect(await refusalOf(usage.charge(anonymousPrincipal('s3'), 'turns'))).to.be.instanceOf(LimitReached);
  });

  it('signed-in people are not charged by address; with nothing shared each cookie has only its own', async () => {
    const usage = meter();
    for (let i = 0; i < 5; i++) await usage.charge({ subject: 'ada', kind: 'user' } as never, 'turns');
    await usage.charge({ subject: 'bob' }, 'turns');
    const apart = meter(null);
    for (const id of ['s1', 's2']) for (let i = 0; i < 5; i++) await apart.charge(anonymousPrincipal(id, '203.0.113.7'), 'turns');
    expect(await apart.addressFigures(anonymousPrincipal('s1', '203.0.113.7'))).to.equal(null);
  });

  it('GET /usage shows an anonymous caller its address budgets beside its own', async () => {
    const usage = meter({ turns: { max: 50, windowSeconds: 3600 } });
    const visitor = anonymousPrincipal('s1', '203.0.113.7');
    await usage.charge(anonymousPrincipal('s0', '203.0.113.7'), 'turns');
    const report = await new GetUsage(usage).execute({ principal: visitor });
    expect(report.budgets.turns).to.deep.include({ used: 0, max: 5 });
    expect(report.addressBudgets).to.deep.equal({
      turns: { used: 1, max: 50, windowSeconds: 3600, remaining: 49, resetsAt: report.addressBudgets!.turns!.resetsAt, retryAfter: null },
    });
    expect(await new GetUsage(usage).execute({ principal: { subject: 'ada', kind: 'user' } })).to.not.have.property('addressBudgets');
  });
});
