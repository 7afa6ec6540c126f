import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../../adapters/store/open-store.js';
import type { Store } from '../../../ports/store.js';
import { ada, countingTool, guardHarness, parkedId } from '../../support/guard-harness.js';
import { ManualClock } from '../../support/manual-clock.js';
import { createTestDatabase, postgresServerUrl, type TestDatabase } from '../../support/postgres.js';
import { codeOf } from '../../support/outcomes.js';
import { closedAfter } from '../../support/closed-after.js';

const signal = () => new AbortController().signal;

/** Two Porter instances racing on one database: exactly one approval wins, the call runs once. */
function describeRaces(engine: string, database: () => Promise<{ url: string; drop(): Promise<void> } | null>) {
  describe(`approval races on ${engine}`, function () {
    this.timeout(60_000);
    let db: { url: string; drop(): Promise<void> } | null;

    before(async function () {
      db = await database();
      if (!db) this.skip();
    });

    // Registered first, so the stores are closed before the database is dropped.
    const stores = closedAfter<Store>();
    after(async () => {
      await db?.drop();
    });

    async function instance(tool: ReturnType<typeof countingTool>['tool']) {
      const store = await openStore(db!.url, { clock: new ManualClock() });
      stores.push(store);
      return guardHarness({ tools: [tool], store });
    }

    it('fifty approvals from two instances at once: one wins, the call executes exactly once', async () => {
      const add = countingTool('notes_add', 'write');
      const first = await instance(add.tool);
      const second = await instance(add.tool);
      const id = parkedId(await first.call('notes_add', { text: 'once' }));
      const codes = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          codeOf((i % 2 ? first : second).decide.execute({ principal: ada, approvalId: id, approve: true })),
        ),
      );
      expect(codes.filter((c) => c === 'resolved')).to.have.length(1);
      expect(codes.filter((c) => c === 'conflict')).to.have.length(49);
      const runs = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          (i % 2 ? first : second).executeApproved.execute({ approvalId: id, principal: ada, signal: signal() }),
        ),
      );
      expect(runs.filter((r) => r !== null)).to.have.length(1);
      expect(add.calls).to.have.length(1);
      expect((await second.get.execute({ principal: ada, approvalId: id })).state).to.equal('executed');
    });

    it('an approval and a denial racing: exactly one decision stands', async () => {
      const add = countingTool('notes_add', 'write');
      const first = await instance(add.tool);
      const second = await instance(add.tool);
      const id = parkedId(await first.call('notes_add', {}));
      const codes = await Promise.all([
        codeOf(first.decide.execute({ principal: ada, approvalId: id, approve: true })),
        codeOf(second.decide.execute({ principal: ada, approvalId: id, approve: false })),
      ]);
      expect(codes.filter((c) => c === 'resolved')).to.have.length(1);
      expect(['approved', 'denied']).to.include((await first.get.execute({ principal: ada, approvalId: id })).state);
    });
  });
}

describeRaces('SQLite (one file, two connections)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'porter-races-'));
  return { url: `sqlite:${join(dir, 'porter.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
});

describeRaces('PostgreSQL', async () => {
  const server = await postgresServerUrl();
  if (!server) return null;
  const db: TestDatabase = await createTestDatabase(server);
  return db;
});
