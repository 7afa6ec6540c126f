import { pairedStoreKinds, type PairedStores } from '../../support/paired-stores.js';
import { expect } from 'chai';
import { LimitReached } from '../../../domain/errors.js';
import { anonymousPrincipal } from '../../../domain/principal.js';
import { DEFAULT_BREAKERS, type Limits } from '../../../domain/usage/budget.js';
import type { UsageTallyPrimitives } from '../../../domain/usage/usage-tally.js';
import type { Store } from '../../../ports/store.js';
import { UsageBook } from '../../../application/usage/usage-book.js';
import { TalliedUsageMeter } from '../../../application/usage/usage-meter.js';
import { ManualClock } from '../../support/manual-clock.js';

const LIMITS: Limits = { turns: { max: 3, windowSeconds: 3600 }, tokens: { max: 100, windowSeconds: 60 } };

function meterOn(store: Store, clock: ManualClock, limits: Limits = LIMITS, perAddress: Limits | null = null): TalliedUsageMeter {
  return new TalliedUsageMeter({
    book: new UsageBook(store.records<UsageTallyPrimitives>('usage')),
    clock,
    settings: { limits, perAddress, breakers: DEFAULT_BREAKERS },
  });
}

/** A meter with only the tool-call breaker, at `perMinute`. */
function breakerMeterOn(store: Store, clock: ManualClock, perMinute: number): TalliedUsageMeter {
  return new TalliedUsageMeter({
    book: new UsageBook(store.records<UsageTallyPrimitives>('usage')),
    clock,
    settings: { limits: {}, perAddress: null, breakers: { toolCallsPerMinute: perMinute, writesPerRun: false } },
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

    it('the tool-call breaker, calls racing on one instance: exactly max run in the minute, the rest are refused with when to retry', async () => {
      const meter = breakerMeterOn(opened!.stores[0]!, clock, 64);
      const settled = await Promise.all(Array.from({ length: 100 }, () => meter.breaker('toolCallsPerMinute', 'one-instance')));
      expect(settled.filter((tripped) => tripped === null)).to.have.length(64);
      for (const tripped of settled.filter((t) => t !== null)) {
        expect(tripped!.budget.name).to.equal('toolCallsPerMinute');
        expect(tripped!.refusal.retryAfterSeconds).to.be.within(1, 61);
      }
    });

    it('the tool-call breaker from two instances, racing: never more than max in a minute', async () => {
      const [a, b] = opened!.stores.map((store) => breakerMeterOn(store, clock, 64));
      const race = (n: number) =>
        Promise.all(Array.from({ length: n }, (_, i) => (i % 2 === 0 ? a! : b!).breaker('toolCallsPerMinute', 'breaker-racer')));
      let ran = 0;
      for (let round = 0; round < 4; round++) {
        ran += (await race(40)).filter((tripped) => tripped === null).length;
        expect(ran, `round ${round}`).to.be.at.most(64);
        clock.advance(1000);
      }
      expect(ran, 'what an instance held back it gave back with its next reservation').to.equal(64);
    });

    it('the tool-call breaker: units one instance reserved and did not use are given back with its next reservation', async () => {
      const [a, b] = opened!.stores.map((store) => breakerMeterOn(store, clock, 64));
      const calls = async (meter: TalliedUsageMeter, n: number) => {
        let ran = 0;
        for (let i = 0; i < n; i++) if ((await meter.breaker('toolCallsPerMinute', 'holder')) === null) ran++;
        return ran;
      };
      // a reserves 1, 2, 4 then 4 units at a time: after 10 calls it holds 1 unused.
      expect(await calls(a!, 10)).to.equal(10);
      expect(await calls(b!, 60), 'b is refused the unit a holds').to.equal(53);
      clock.advance(1000);
      expect(await calls(a!, 1), 'a gives its unused unit back, then takes it').to.equal(1);
      expect(await calls(b!, 1)).to.equal(0);
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
