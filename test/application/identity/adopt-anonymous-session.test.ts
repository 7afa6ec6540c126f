import { expect } from 'chai';
import { AdoptAnonymousSession, type AdoptionMarker } from '../../../application/identity/adopt-anonymous-session.js';
import type { SessionAdopter } from '../../../application/identity/session-adopter.js';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import { ManualClock } from '../../support/manual-clock.js';

const ANON = 'porter:anon:anon_01JTESTSESSION0';
const user = (subject: string) => ({ subject, kind: 'user' });

/** An adopter that moves "owned" rows from one subject to another, failing on demand. */
class OwnedThings implements SessionAdopter {
  readonly family = 'things';
  readonly owners = new Map<string, string>();
  failures = 0;

  async adopt(from: string, to: string): Promise<void> {
    for (const [id, owner] of this.owners) {
      if (owner !== from) continue;
      if (this.failures > 0) {
        this.failures -= 1;
        throw new Error('moving failed halfway');
      }
      this.owners.set(id, to);
    }
  }
}

describe('AdoptAnonymousSession', () => {
  describe('on a store with atomic inserts', () => {
    let things: OwnedThings;
    let useCase: AdoptAnonymousSession;

    beforeEach(() => {
      const clock = new ManualClock();
      things = new OwnedThings();
      things.owners.set('a', ANON).set('b', ANON).set('c', 'someone-else');
      useCase = new AdoptAnonymousSession(new MemoryStore({ clock }).records<AdoptionMarker>('adoptions'), [things], clock);
    });

    it('moves what the anonymous session owns to the signed-in user, and nothing else', async () => {
      expect(await useCase.execute({ from: ANON, to: user('ada') })).to.equal('adopted');
      expect(Object.fromEntries(things.owners)).to.deep.equal({ a: 'ada', b: 'ada', c: 'someone-else' });
    });

    it('is idempotent for the same user', async () => {
      await useCase.execute({ from: ANON, to: user('ada') });
      expect(await useCase.execute({ from: ANON, to: user('ada') })).to.equal('adopted');
      expect(things.owners.get('a')).to.equal('ada');
    });

    it('finishes the move on a retry after a partial failure', async () => {
      things.failures = 1;
      let failed = false;
      try {
        await useCase.execute({ from: ANON, to: user('ada') });
      } catch {
        failed = true;
      }
      expect(failed).to.equal(true);
      expect(await useCase.execute({ from: ANON, to: user('ada') })).to.equal('adopted');
      expect(things.owners.get('a')).to.equal('ada');
      expect(things.owners.get('b')).to.equal('ada');
    });

    it('refuses a second user presenting the same session, moving nothing', async () => {
      await useCase.execute({ from: ANON, to: user('ada') });
      things.owners.set('late', ANON);
      expect(await useCase.execute({ from: ANON, to: user('mallory') })).to.equal('refused');
      expect(things.owners.get('late')).to.equal(ANON);
      expect([...things.owners.values()]).to.not.include('mallory');
    });
  });

  it('fails closed on a store without atomic inserts: nothing moves, for anyone', async () => {
    const clock = new ManualClock();
    const things = new OwnedThings();
    things.owners.set('a', ANON);
    const useCase = new AdoptAnonymousSession(
      new MemoryStore({ clock, atomic: false }).records<AdoptionMarker>('adoptions'),
      [things],
      clock,
    );
    for (const to of ['ada', 'mallory']) {
      try {
        await useCase.execute({ from: ANON, to: user(to) });
        expect.fail('expected adoption to fail closed');
      } catch (error) {
        expect((error as { code?: string }).code).to.equal('unavailable');
      }
    }
    expect(things.owners.get('a')).to.equal(ANON);
  });

  it('refuses to adopt a subject that is not an anonymous session', async () => {
    const clock = new ManualClock();
    const useCase = new AdoptAnonymousSession(new MemoryStore({ clock }).records<AdoptionMarker>('adoptions'), [], clock);
    try {
      await useCase.execute({ from: 'ada', to: user('mallory') });
      expect.fail('expected a validation error');
    } catch (error) {
      expect((error as { code?: string }).code).to.equal('validation');
    }
  });
});
