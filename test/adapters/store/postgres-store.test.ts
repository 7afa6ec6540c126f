import { expect } from 'chai';
import { createServer } from 'node:net';
import { DomainError } from '../../../domain/errors.js';
import { MikroOrmStore } from '../../../adapters/store/mikro-orm/mikro-orm-store.js';
import { POSTGRESQL_MIGRATIONS } from '../../../adapters/store/mikro-orm/migrations/postgresql/migration-list.js';
import { MIGRATIONS_TABLE } from '../../../adapters/store/mikro-orm/record-schema.js';
import { ManualClock } from '../../support/manual-clock.js';
import { createTestDatabase, postgresServerUrl, type TestDatabase } from '../../support/postgres.js';
import { describeMikroOrmStoreBehaviour } from './mikro-orm-store-behaviour.js';
import { describeStoreConformance } from './store-conformance.js';

/** A port on 127.0.0.1 that nothing listens on: bound once by us, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function expectUnavailable(promise: Promise<unknown>): Promise<void> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(DomainError);
    expect((error as DomainError).code).to.equal('unavailable');
    return;
  }
  expect.fail('expected Unavailable');
}

describe('MikroORM store on PostgreSQL', function () {
  const databases: TestDatabase[] = [];

  /** A fresh database on the test server, or null (skip) when there is no server. */
  async function freshDatabase(): Promise<TestDatabase | null> {
    const server = await postgresServerUrl();
    if (!server) return null; // test/support/test-services.ts has said why
    const database = await createTestDatabase(server);
    databases.push(database);
    return database;
  }

  after(async () => {
    while (databases.length) await databases.pop()!.drop();
  });

  describeStoreConformance('postgresql', async () => {
    const database = await freshDatabase();
    if (!database) return null;
    return { open: (clock) => MikroOrmStore.open({ target: { engine: 'postgresql', url: database.url }, clock }), shared: true };
  });

  describeMikroOrmStoreBehaviour('postgresql', async () => {
    const database = await freshDatabase();
    if (!database) return null;
    return (options) => MikroOrmStore.open({ target: { engine: 'postgresql', url: database.url }, ...options });
  });

  describe('booting several instances at once', () => {
    it('migrates once under the advisory lock, and every instance opens', async function () {
      const database = await freshDatabase();
      if (!database) this.skip();
      const settled = await Promise.allSettled(
        Array.from({ length: 6 }, () =>
          MikroOrmStore.open({ target: { engine: 'postgresql', url: database!.url }, clock: new ManualClock() }),
        ),
      );
      const stores = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
      try {
        expect(
          settled.filter((outcome) => outcome.status === 'rejected').map((outcome) => String((outcome as PromiseRejectedResult).reason)),
        ).to.deep.equal([]);
        const rows = await stores[0]!.mikroOrm.em.getConnection().execute<Array<{ name: string }>>(`select name from ${MIGRATIONS_TABLE}`);
        expect(rows.map((row) => row.name)).to.deep.equal(POSTGRESQL_MIGRATIONS.map((migration) => migration.name));
        await stores[1]!.records('x').put({ id: 'a', data: 1 });
        expect((await stores[5]!.records('x').get('a'))?.data).to.equal(1);
      } finally {
        await Promise.all(stores.map((store) => store.close()));
      }
    });
  });

  describe('with ?schema= in the URL', () => {
    it("keeps every table, its own and MikroORM's, in that schema", async function () {
      const database = await freshDatabase();
      if (!database) this.skip();
      const inSchema = new URL(database!.url);
      inSchema.searchParams.set('schema', 'porter_embedded');
      const clock = new ManualClock();
      const scoped = await MikroOrmStore.open({ target: { engine: 'postgresql', url: inSchema.toString() }, clock });
      const plain = await MikroOrmStore.open({ target: { engine: 'postgresql', url: database!.url }, clock });
      try {
        await scoped.records('notes').put({ id: 'a', data: 'scoped', refs: { owner: 'u' } });
        expect((await scoped.records('notes').list({ refs: { owner: 'u' } })).items.map((r) => r.data)).to.deep.equal(['scoped']);
        expect(await plain.records('notes').get('a')).to.equal(null);
        const tables = await plain.mikroOrm.em
          .getConnection()
          .execute<Array<{ table_schema: string; table_name: string }>>(
            "select table_schema, table_name from information_schema.tables where table_name like 'porter%' order by 1, 2",
          );
        const inEmbedded = tables.filter((t) => t.table_schema === 'porter_embedded').map((t) => t.table_name);
        expect(inEmbedded).to.deep.equal([
          'porter_blobs',
          'porter_feed_entries',
          'porter_migrations',
          'porter_record_refs',
          'porter_records',
          'porter_text_passages',
        ]);
      } finally {
        await scoped.close();
        await plain.close();
      }
    });
  });

  describe('with nothing listening', () => {
    it('rejects ping and operations with Unavailable', async () => {
      const url = `postgres://porter:secret@127.0.0.1:${await closedPort()}/porter`;
      const store = await MikroOrmStore.open({ target: { engine: 'postgresql', url }, clock: new ManualClock(), migrate: false });
      try {
        await expectUnavailable(store.ping());
        await expectUnavailable(store.records('x').get('a'));
        await expectUnavailable(store.blobs('x').list());
      } finally {
        await store.close();
      }
    });

    it('refuses to open with Unavailable when it has to migrate', async () => {
      const url = `postgres://porter@127.0.0.1:${await closedPort()}/porter`;
      await expectUnavailable(MikroOrmStore.open({ target: { engine: 'postgresql', url }, clock: new ManualClock() }));
    });
  });
});
