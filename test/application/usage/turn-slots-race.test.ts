import { pairedStoreKinds, type PairedStores } from '../../support/paired-stores.js';
import { expect } from 'chai';
import { LimitReached } from '../../../domain/errors.js';
import type { TurnsInFlightPrimitives } from '../../../domain/usage/turns-in-flight.js';
import type { Store } from '../../../ports/store.js';
import { LeasedTurnSlots, type TurnSlot } from '../../../application/usage/turn-slots.js';
import { TurnsInFlightBook } from '../../../application/usage/turns-in-flight-book.js';
import { ManualClock } from '../../support/manual-clock.js';
import { RecordingLogger } from '../../support/fakes.js';

const LEASE_MS = 15_000;

function slotsOn(store: Store, clock: ManualClock, max = 4): LeasedTurnSlots {
  return new LeasedTurnSlots({
    book: new TurnsInFlightBook(store.records<TurnsInFlightPrimitives>('turns-in-flight')),
    keysOf: (payer) => [payer.subject],
    clock,
    logger: new RecordingLogger(),
    settings: { max, leaseMs: LEASE_MS },
  });
}

/**
 * Two instances (two stores over one database, or one memory store) race for a subject's last
 * place in flight, round after round: exactly the places left are taken, the rest refused.
 */
function describeRace(label: string, open: () => Promise<PairedStores | null>): void {
  describe(`racing for the last turn in flight: ${label}`, function () {
    this.timeout(60_000);
    let opened: PairedStores | null = null;
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    const held: TurnSlot[] = [];

    before(async function () {
      opened = await open();
      if (!opened) this.skip();
    });
    after(async () => {
      for (const slot of held) await slot.release();
      if (opened) {
        for (const store of opened.stores) await store.close();
        await opened.cleanup();
      }
    });

    it('eight turns racing for the last of four places from two instances: exactly one wins, round after round', async () => {
      const [a, b] = opened!.stores.map((store) => slotsOn(store, clock));
      for (let round = 0; round < 6; round++) {
        const who = { subject: `racer-${round}` };
        for (let i = 0; i < 3; i++) held.push(await (i % 2 ? b! : a!).take(who, `warm-${round}-${i}`));
        const settled = await Promise.allSettled([a, b, a, b, a, b, a, b].map((slots, i) => slots!.take(who, `race-${round}-${i}`)));
        const won = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
        const refused = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
        held.push(...won);
        expect(won, `round ${round}`).to.have.length(1);
        expect(refused).to.have.length(7);
        for (const reason of refused) {
          expect(reason).to.be.instanceOf(LimitReached);
          expect((reason as LimitReached).details).to.deep.include({ budget: 'turnsInFlight' });
          expect((reason as LimitReached).retryAfterSeconds).to.be.within(1, LEASE_MS / 1000);
        }
      }
    });

    it('several racing for several places get exactly that many; a place let go on one instance is free on the other', async () => {
      const [a, b] = opened!.stores.map((store) => slotsOn(store, clock, 3));
      const who = { subject: 'many' };
      const settled = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => (i % 2 ? b! : a!).take(who, `many-${i}`)));
      const won = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      expect(won).to.have.length(3);
      await won[0]!.release();
      const next = await b!.take(who, 'after-release');
      expect(await a!.take(who, 'one-too-many').catch((error: unknown) => error)).to.be.instanceOf(LimitReached);
      held.push(...won.slice(1), next);
    });

    it('a place whose instance died lapses with its lease: it cannot keep the subject out for good', async () => {
      const [a, b] = opened!.stores.map((store) => slotsOn(store, clock, 1));
      const who = { subject: 'crashed' };
      // Taken on an instance that then died: never renewed, never let go.
      const orphan = await a!.take(who, 'orphan');
      expect(await b!.take(who, 'too-soon').catch((error: unknown) => error)).to.be.instanceOf(LimitReached);
      clock.advance(LEASE_MS + 1);
      held.push(await b!.take(who, 'after-the-lease'), orphan);
    });
  });
}

describe('TurnSlots across instances', () => {
  for (const [label, open] of pairedStoreKinds('porter-turn-slots-')) describeRace(label, open);
});
