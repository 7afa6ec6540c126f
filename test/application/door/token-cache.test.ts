import { expect } from 'chai';
import { LocalBearerVerifier } from '../../../application/door/local-bearer-verifier.js';
import { TokenFamilyBook, type AccessTokenPrimitives } from '../../../application/door/token-family-book.js';
import { NodeDoorSecrets } from '../../../adapters/mcp/node-door-secrets.js';
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

describe('LocalBearerVerifier over the token cache', () => {
  const secrets = new NodeDoorSecrets();
  const resource = 'http://x/api/porter/mcp';

  it('refuses a cached token from the moment it expires, though the record it read once is still trusted', async () => {
    const clock = new ManualClock('2026-01-01T00:00:00.000Z');
    const families = new TokenFamilyBook(new MemoryStore({ clock }), 60_000, () => clock.now().getTime());
    await families.addAccessToken(secrets.digest('bearer-1'), { ...token, expiresAt: '2026-01-01T00:00:10.000Z' });
    const verifier = new LocalBearerVerifier(families, secrets, clock);
    expect(await verifier.verify('bearer-1', resource)).to.deep.include({ subject: 'ada', clientId: 'mcpc_1', expiresAt: 1767225610 });
    clock.advance(9_999);
    expect(await verifier.verify('bearer-1', resource)).to.not.equal(null);
    clock.advance(1);
    expect(await verifier.verify('bearer-1', resource)).to.equal(null);
    expect(await verifier.verify('bearer-1', 'http://elsewhere/mcp')).to.equal(null);
  });

  it('refuses a token whose stored expiry is not a time, rather than trusting it forever', async () => {
    const clock = new ManualClock();
    const families = new TokenFamilyBook(new MemoryStore({ clock }), 60_000);
    await families.addAccessToken(secrets.digest('bearer-2'), { ...token, expiresAt: 'never' });
    expect(await new LocalBearerVerifier(families, secrets, clock).verify('bearer-2', resource)).to.equal(null);
  });
});
