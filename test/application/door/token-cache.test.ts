import { expect } from 'chai';
import { TokenFamilyBook, type AccessTokenPrimitives } from '../../../application/door/token-family-book.js';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import { ManualClock } from '../../support/manual-clock.js';

const token: AccessTokenPrimitives = {
  familyId: 'fam_1',
  subject: 'ada',
  clientId: 'mcpc_1',
  scope: 'mcp',
  resource: 'http://x/api/porter/mcp',
  evidence: 'consent-1',
  expiresAt: '2099-01-01T00:00:00.000Z',
};

describe('TokenFamilyBook: recently checked access tokens', () => {
  it('answers from memory within the cache window and reads the store again after it', async () => {
    const store = new MemoryStore({ clock: new ManualClock() });
    let now = 1_000;
    const here = new TokenFamilyBook(store, 1_000, () => now);
    const elsewhere = new TokenFamilyBook(store);
    await here.addAccessToken('digest-1', token);
    expect(await here.findAccessToken('digest-1')).to.deep.equal(token);
    await elsewhere.dropAccessToken('digest-1');
    // Another instance revoked it: this one trusts its check for at most the window.
    expect(await here.findAccessToken('digest-1')).to.deep.equal(token);
    now += 1_001;
    expect(await here.findAccessToken('digest-1')).to.equal(null);
  });

  it('forgets a token the moment this instance drops it', async () => {
    const here = new TokenFamilyBook(new MemoryStore({ clock: new ManualClock() }), 60_000);
    await here.addAccessToken('digest-2', token);
    expect(await here.findAccessToken('digest-2')).to.not.equal(null);
    await here.dropAccessToken('digest-2');
    expect(await here.findAccessToken('digest-2')).to.equal(null);
  });

  it('reads the store every time with a window of 0', async () => {
    const store = new MemoryStore({ clock: new ManualClock() });
    const here = new TokenFamilyBook(store, 0);
    await here.addAccessToken('digest-3', token);
    await here.findAccessToken('digest-3');
    await new TokenFamilyBook(store).dropAccessToken('digest-3');
    expect(await here.findAccessToken('digest-3')).to.equal(null);
  });
});
