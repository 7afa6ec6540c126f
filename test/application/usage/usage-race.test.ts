import { pairedStoreKinds, type PairedStores } from '../../support/paired-stores.js';
import { expect } from 'chai';
import { LimitReached } from '../../../domain/errors.js';
import { anonymousPrincipal } from '../../../domain/principal.js';
import { DEFAULT_BREAKERS, type Limits } from '../../../domain/usage/budget.js';
import type { UsageTallyPrimitives } from '../../../domain/usage/usage-tally.js';
import type { Store } from '../../../ports/store.js';
import { UsageBook } from '../../../application/usage/usage-book.js';
import { UsageMeter } from '../../../application/usage/usage-meter.js';
import { ManualClock } from '../../support/manual-clock.js';

const LIMITS: Limits = { turns: { max: 3, windowSeconds: 3600 }, tokens: { max: 100, windowSeconds: 60 } };

function meterOn(store: Store, clock: ManualClock, limits: Limits = LIMITS, perAddress: Limits | null = null): UsageMeter {
  return new UsageMeter({
    book: new UsageBook(store.records<UsageTallyPrimitives>('usage')),
    clock,
    settings: { limits, perAddress, breakers: DEFAULT_BREAKERS },
  });
}

/**
 * Two instances (two stores over one database, or one memory store) race a subject's last unit
 * of budget, several rounds over: each round, exactly one charge wins and the rest are refused.
 */
function describeRace(label: string, open: () => Promise<PairedStores | null>): void {
  describe(`racing a subject's last unit: ${label}`, function () {
    this.timeout(60_000);
    let opened: PairedStores | null = null;
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');

    before(async function () {
      opened = await open();
      if (!opened) this.skip();
    });
    after(async () => {
      if (opened) {
        for (const store of opened.stores) await store.close();
        await opened.cleanup();
      }
    });

    it('is spent exactly once, round after round, from two instances (two callers each)', async () => {
      const [a, b] = opened!.stores.map((store) => meterOn(store, clock));
      for (let round = 0; round < 8; round++) {
        const subject = `racer-${round}`;
        await a!.charge(subject, 'turns');
        await b!.charge(subject, 'turns');
        const settled = await Promise.allSettled([
          a!.charge(subject, 'turns'),
          b!.charge(subject, 'turns'),
          a!.charge(subject, 'turns'),
          b!.charge(subject, 'turns'),
        ]);
        const won = settled.filter((s) => s.status === 'fulfilled');
        const refused = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason] : []));
        expect(won, `round ${round}`).to.have.length(1);
        expect(refused).to.have.length(3);
        for (const reason of refused) {
          expect(reason).to.be.instanceOf(LimitReached);
          expect((reason as LimitReached).budget).to.equal('turns');
        }
        expect((await a!.figures(subject)).turns).to.deep.include({ used: 3, remaining: 0 });
        expect((await b!.figures(subject)).turns).to.deep.include({ used: 3, remaining: 0 });
      }
    });

    it('anonymous sessions of one address racing its last unit from two instances: one wins, the rest spend nothing of their own', async () => {
      const [a, b] = opened!.stores.map((store) => meterOn(store, clock, LIMITS, { turns: { max: 3, windowSeconds: 3600 } }));
      for (let round = 0; round < 4; round++) {
        const address = `203.0.113.${round}`;
        await a!.charge(anonymousPrincipal(`r${round}-warm1`, address), 'turns');
        await b!.charge(anonymousPrincipal(`r${round}-warm2`, address), 'turns');
        const racers = [a, b, a, b].map((meter, i) => ({ meter: meter!, session: anonymousPrincipal(`r${round}-racer${i}`, address) }));
        const settled = await Promise.allSettled(racers.map(({ meter, session }) => meter.charge(session, 'turns')));
        expect(
          settled.filter((s) => s.status === 'fulfilled'),
          `round ${round}`,
        ).to.have.length(1);
        const used = await Promise.all(racers.map(async ({ session }) => (await a!.figures(session.subject)).turns!.used));
        expect(used.sort()).to.deep.equal([0, 0, 0, 1]);
        expect((await b!.addressFigures(racers[0]!.session))!.turns).to.deep.include({ used: 3, remaining: 0 });
      }
    });

    it('tokens are counted after the step from both instances: a step starts while any is left, and every token spent is counted', async () => {
      const [a, b] = opened!.stores.map((store) => meterOn(store, clock));
      const subject = 'tokens-racer';
      await Promise.all([a!.ensureLeft(subject, 'tokens'), b!.ensureLeft(subject, 'tokens')]);
      await Promise.all([a!.record(subject, 'tokens', 60), b!.record(subject, 'tokens', 60), a!.record(subject, 'tokens', 1)]);
      // Over by at most the steps in flight, and never lost: 121 counted.
      expect((await a!.figures(subject)).tokens).to.deep.include({ used: 121, remaining: 0 });
      const refusal = await b!.ensureLeft(subject, 'tokens').then(
        () => null,
        (error: unknown) => error,
      );
      expect(refusal).to.be.instanceOf(LimitReached);
      expect((refusal as LimitReached).retryAfterSeconds).to.be.within(1, 62);
    });
  });
}

describe('UsageMeter across instances', () => {
  for (const [label, open] of pairedStoreKinds('porter-usage-')) describeRace(label, open);
});
