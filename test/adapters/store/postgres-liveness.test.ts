import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../../adapters/store/open-store.js';
import { SystemClock } from '../../../adapters/runtime/system-clock.js';
import type { Store } from '../../../ports/store.js';
import { createTestDatabase, postgresServerUrl, type TestDatabase } from '../../support/postgres.js';

describe('Liveness marks on PostgreSQL (a session advisory lock per instance)', function () {
  this.timeout(30_000);
  let database: TestDatabase | null = null;
  let other: TestDatabase | null = null;
  const stores: Store[] = [];

  before(async function () {
    const server = await postgresServerUrl();
    if (!server) return this.skip();
    database = await createTestDatabase(server);
    other = await createTestDatabase(server);
  });

  after(async () => {
    for (const store of stores) await store.close().catch(() => undefined);
    await database?.drop();
    await other?.drop();
  });

  const open = async (url: string) => {
    const store = await openStore(url, { clock: new SystemClock() });
    stores.push(store);
    return store;
  };

  it('each instance sees the others’ marks while their sessions live, and a mark gone once its instance closes; another database’s are not seen', async () => {
    const a = (await open(database!.url)).liveness!()!;
    const b = (await open(database!.url)).liveness!()!;
    const elsewhere = (await open(other!.url)).liveness!()!;
    expect(a.holding).to.equal(false);
    await a.hold('host:1:aaaa');
    await b.hold('host:2:bbbb');
    await elsewhere.hold('host:3:cccc');
    expect(a.holding).to.equal(true);

    const seen = await b.alive();
    expect(seen.isAlive('host:1:aaaa')).to.equal(true);
    expect(seen.isAlive('host:2:bbbb')).to.equal(true);
    expect(seen.isAlive('host:3:cccc'), 'a mark on another database').to.equal(false);
    expect(seen.isAlive('host:9:never')).to.equal(false);
    expect(seen.keys.size).to.equal(2);

    // A second session cannot take a mark that is held.
    const twin = (await open(database!.url)).liveness!()!;
    let refused: unknown = null;
    await twin.hold('host:1:aaaa').catch((error: unknown) => (refused = error));
    expect(refused).to.be.instanceOf(Error);

    await a.release();
    const after = await b.alive();
    expect(after.isAlive('host:1:aaaa')).to.equal(false);
    expect(after.isAlive('host:2:bbbb')).to.equal(true);
    expect(
      [...seen.keys].some((key) => !after.keys.has(key)),
      'a key gone: an instance that died',
    ).to.equal(true);
  });

  it('SQLite keeps none: leases alone tell a crash', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'porter-liveness-'));
    const store = await openStore(`sqlite:${join(folder, 'porter.db')}`, { clock: new SystemClock() });
    try {
      expect(store.liveness?.() ?? null).to.equal(null);
    } finally {
      await store.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
