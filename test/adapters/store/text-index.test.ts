import { expect } from 'chai';
import pg from 'pg';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import { MikroOrmStore } from '../../../adapters/store/mikro-orm/mikro-orm-store.js';
import { createTestDatabase, postgresServerUrl, type TestDatabase } from '../../support/postgres.js';
import { describeTextIndexConformance } from './text-index-conformance.js';
import { ManualClock } from '../../support/manual-clock.js';

describe('Text indexes', function () {
  let folder: string;
  const databases: TestDatabase[] = [];

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'porter-text-'));
  });

  after(async () => {
    await rm(folder, { recursive: true, force: true });
    while (databases.length) await databases.pop()!.drop();
  });

  describeTextIndexConformance('memory', async () => async (clock) => new MemoryStore({ clock }));

  describeTextIndexConformance('sqlite (FTS5)', async () => {
    const file = join(folder, 'text.db');
    return (clock) => MikroOrmStore.open({ target: { engine: 'sqlite', file }, clock });
  });

  describeTextIndexConformance('postgresql (tsvector)', async () => {
    const server = await postgresServerUrl();
    if (!server) return null;
    const database = await createTestDatabase(server);
    databases.push(database);
    return (clock) => MikroOrmStore.open({ target: { engine: 'postgresql', url: database.url }, clock });
  });
});

describe('The PostgreSQL text index after a bulk load', function () {
  this.timeout(60_000);
  let database: TestDatabase | null = null;

  after(async () => {
    await database?.drop();
  });

  it('refreshes the table statistics once a thousand passages were written, so the next search is planned for its size', async function () {
    const server = await postgresServerUrl();
    if (!server) return this.skip();
    database = await createTestDatabase(server);
    const store = await MikroOrmStore.open({ target: { engine: 'postgresql', url: database.url }, clock: new ManualClock() });
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const analyzed = async () =>
        (await client.query(`select last_analyze from pg_stat_user_tables where relname = 'porter_text_passages'`)).rows[0]?.last_analyze ??
        null;
      const index = store.textIndex!('bulk');
      const passages = (from: number, count: number) =>
        Array.from({ length: count }, (_, n) => ({
          id: `p${from + n}`,
          refs: { scope: 'everyone' },
          text: `passage ${from + n} about tomatoes`,
        }));
      await index.put(passages(0, 999));
      expect(await analyzed(), 'not before a thousand').to.equal(null);
      await index.put(passages(999, 1));
      expect(await analyzed(), 'analyzed at a thousand').to.not.equal(null);
      expect((await index.search({ text: 'tomatoes', where: { scope: ['everyone'] }, limit: 5 })).length).to.equal(5);
    } finally {
      await client.end();
      await store.close();
    }
  });
});
