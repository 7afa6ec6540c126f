import { expect } from 'chai';
import { openStore } from '../../../adapters/store/open-store.js';
import type { Store } from '../../../ports/store.js';
import { NotFound } from '../../../domain/errors.js';
import { ScriptedBroker } from '../../support/scripted-broker.js';
import { ManualClock } from '../../support/manual-clock.js';
import { createTestDatabase, postgresServerUrl, type TestDatabase } from '../../support/postgres.js';
import { ada, connectionsHarness, expectPollLosesToDelete, expectRemovedOnce } from './connections-harness.js';

/** The races that need one winner, on the stores Porter runs on in production. */
function races(name: string, open: (clock: ManualClock) => Promise<{ store: Store; close(): Promise<void> } | null>) {
  describe(`Connections on ${name}: one winner per race`, function () {
    this.timeout(30_000);
    let opened: { store: Store; close(): Promise<void> } | null = null;
    let clock: ManualClock;

    beforeEach(async function () {
      clock = new ManualClock('2026-06-01T12:00:00.000Z');
      opened = await open(clock);
      if (!opened) this.skip();
    });
    afterEach(async () => {
      await opened?.close();
    });

    const harness = (broker: ScriptedBroker) => connectionsHarness(broker, { clock, store: () => opened!.store });

    it('racing polls record the move to active once', async () => {
      const broker = new ScriptedBroker();
      const h = harness(broker);
      const { id } = await h.start();
      broker.consent(id);
      const seen = await Promise.all(Array.from({ length: 6 }, () => h.get.execute({ principal: ada, connectionId: id })));
      expect(seen.every((v) => v.status === 'active')).to.equal(true);
      const moves = (await h.auditLog.list('ada', { limit: 100 })).events.filter((e) => e.action === 'connection.active');
      expect(moves).to.have.length(1);
    });

    it('racing deletes: one removal is recorded and the connection is gone', async () => {
      const broker = new ScriptedBroker();
      const h = harness(broker);
      const { id } = await h.start();
      const outcomes = await Promise.allSettled(Array.from({ length: 4 }, () => h.remove.execute({ principal: ada, connectionId: id })));
      for (const outcome of outcomes) if (outcome.status === 'rejected') expect(outcome.reason).to.be.instanceOf(NotFound);
      expect(outcomes.some((o) => o.status === 'fulfilled')).to.equal(true);
      await expectRemovedOnce(h, id);
    });

    it('a poll racing a delete never brings the connection back', async () => {
      const broker = new ScriptedBroker();
      await expectPollLosesToDelete(harness(broker), broker);
    });
  });
}

races('SQLite', async (clock) => {
  const store = await openStore('sqlite::memory:', { clock });
  return { store, close: () => store.close() };
});

races('PostgreSQL', async (clock) => {
  const server = await postgresServerUrl();
  if (!server) return null;
  const database: TestDatabase = await createTestDatabase(server);
  const store = await openStore(database.url, { clock });
  return {
    store,
    async close() {
      await store.close();
      await database.drop();
    },
  };
});
