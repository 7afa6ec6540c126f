import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import pg from 'pg';
import { MikroOrmStore } from '../../../adapters/store/mikro-orm/mikro-orm-store.js';
import { migrate, type MigrationLedger } from '../../../adapters/store/mikro-orm/migrate.js';
import { POSTGRESQL_MIGRATIONS } from '../../../adapters/store/mikro-orm/migrations/postgresql/migration-list.js';
import type { SqlMigration } from '../../../adapters/store/mikro-orm/migrations/sql-migration.js';
import { SQLITE_MIGRATIONS } from '../../../adapters/store/mikro-orm/migrations/sqlite/migration-list.js';
import type { MikroOrmTarget } from '../../../adapters/store/mikro-orm/orm-options.js';
import { postgresqlMigrationLedger } from '../../../adapters/store/mikro-orm/postgresql-migration-ledger.js';
import { sqliteMigrationLedger } from '../../../adapters/store/mikro-orm/sqlite-migration-ledger.js';
import type { SqliteConnection } from '../../../adapters/store/mikro-orm/sqlite-connection.js';
import { soleConnection } from '../../../adapters/store/mikro-orm/sql-runner.js';
import { ManualClock } from '../../support/manual-clock.js';
import { createTestDatabase, postgresServerUrl, type TestDatabase } from '../../support/postgres.js';
import { holdSqliteWriteLock } from '../../support/sqlite-lock-holder.js';
import { recordingLogger } from './mikro-orm-store-behaviour.js';
import { closedAfter } from '../../support/closed-after.js';

/**
 * What the previous version (MikroORM's Migrator, @mikro-orm/migrations 6.6.16) left in a database
 * it migrated: its bookkeeping table, created by knex with these exact statements, and one row per
 * migration named without a file extension.
 */
const PREVIOUS_VERSION_LEDGER = {
  sqlite:
    'CREATE TABLE `porter_migrations` (`id` integer not null primary key autoincrement, `name` varchar(255), `executed_at` datetime default CURRENT_TIMESTAMP)',
  postgresql:
    'create table "public"."porter_migrations" ("id" serial primary key, "name" varchar(255), "executed_at" timestamptz default CURRENT_TIMESTAMP)',
};

/** The columns of porter_migrations as the previous version created them on PostgreSQL. */
const POSTGRESQL_LEDGER_COLUMNS = [
  { column_name: 'id', data_type: 'integer', column_default: "nextval('porter_migrations_id_seq'::regclass)", is_nullable: 'NO' },
  { column_name: 'name', data_type: 'character varying', column_default: null, is_nullable: 'YES' },
  { column_name: 'executed_at', data_type: 'timestamp with time zone', column_default: 'CURRENT_TIMESTAMP', is_nullable: 'YES' },
];

const RECORD_INSERT =
  "insert into porter_records (collection, id, data, refs, revision, created_at, updated_at) values ('notes', 'kept', '{\"v\":1}', '{\"owner\":\"u1\"}', 1, 1, 1)";

/** One engine's database under test, reached both through the store and through its plain driver. */
interface Engine {
  readonly target: MikroOrmTarget;
  sql<R>(text: string, params?: unknown[]): Promise<R[]>;
  /** A ledger on a connection of the test's own, for running migration lists the store does not ship. */
  ledger(): MigrationLedger;
  readonly migrations: readonly SqlMigration[];
  /** Builds what the previous version left after migrating, plus one record. */
  migrateAsPreviousVersion(): Promise<void>;
  close(): Promise<void>;
}

async function sqliteEngine(folder: string, name: string): Promise<Engine> {
  const file = join(folder, `${name}.db`);
  const db = new Database(file);
  db.exec('pragma journal_mode = wal');
  return {
    target: { engine: 'sqlite', file },
    sql: async <R>(text: string, params: unknown[] = []) => db.prepare(text).all(params) as R[],
    ledger: () => sqliteMigrationLedger(soleConnection(db as unknown as SqliteConnection), 1_000),
    migrations: SQLITE_MIGRATIONS,
    async migrateAsPreviousVersion() {
      db.exec(PREVIOUS_VERSION_LEDGER.sqlite);
      db.exec('begin');
      for (const statement of SQLITE_MIGRATIONS[0]!.statements) db.exec(statement);
      db.prepare('insert into `porter_migrations` (`name`) values (?)').run(['0001-initial-schema']);
      db.exec('commit');
      db.exec(RECORD_INSERT);
    },
    close: async () => {
      db.close();
    },
  };
}

async function postgresqlEngine(database: TestDatabase): Promise<Engine> {
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  const sql = async <R>(text: string, params: unknown[] = []) => (await pool.query(text, params)).rows as R[];
  return {
    target: { engine: 'postgresql', url: database.url },
    sql,
    ledger: () =>
      postgresqlMigrationLedger(
        {
          acquire: () => pool.connect(),
          release: async (client) => (client as pg.PoolClient).release(),
          discard: async (client) => (client as pg.PoolClient).release(true),
        },
        null,
      ),
    migrations: POSTGRESQL_MIGRATIONS,
    async migrateAsPreviousVersion() {
      await sql(PREVIOUS_VERSION_LEDGER.postgresql);
      await sql('begin');
      for (const statement of POSTGRESQL_MIGRATIONS[0]!.statements) await sql(statement);
      await sql('insert into "public"."porter_migrations" ("name") values ($1)', ['0001-initial-schema']);
      await sql('commit');
      await sql(RECORD_INSERT);
    },
    close: () => pool.end(),
  };
}

describe('store migrations', function () {
  let folder: string;
  let files = 0;
  const databases: TestDatabase[] = [];

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'porter-migrate-'));
  });

  after(async () => {
    await rm(folder, { recursive: true, force: true });
    while (databases.length) await databases.pop()!.drop();
  });

  for (const engineName of ['sqlite', 'postgresql'] as const) {
    describe(`on ${engineName}`, () => {
      let engine: Engine;
      const stores = closedAfter<MikroOrmStore>({ each: true });

      beforeEach(async function () {
        if (engineName === 'sqlite') {
          engine = await sqliteEngine(folder, `migrate-${++files}`);
          return;
        }
        const server = await postgresServerUrl();
        if (!server) this.skip();
        const database = await createTestDatabase(server!);
        databases.push(database);
        engine = await postgresqlEngine(database);
      });

      afterEach(async () => {
        await engine?.close();
      });

      async function open(logger = recordingLogger()): Promise<{ store: MikroOrmStore; applied: unknown[] }> {
        const store = await MikroOrmStore.open({ target: engine.target, clock: new ManualClock(), logger });
        stores.push(store);
        const applied = logger.lines.filter((line) => line.message === 'store migrations applied').map((line) => line.fields?.migrations);
        return { store, applied };
      }

      const names = () => engine.migrations.map((migration) => migration.name);
      const ledgerRows = () => engine.sql<{ id: number; name: string }>('select id, name from porter_migrations order by id');

      it('migrates a fresh database, keeping its books as the previous version did', async () => {
        const { store, applied } = await open();
        expect(applied).to.deep.equal([names()]);
        expect(await ledgerRows()).to.deep.equal(names().map((name, i) => ({ id: i + 1, name })));
        const [written] = await engine.sql<{ executed_at: unknown }>('select executed_at from porter_migrations');
        expect(written?.executed_at, 'executed_at is filled in').to.not.equal(null);
        if (engineName === 'sqlite') {
          const [ledger] = await engine.sql<{ sql: string }>("select sql from sqlite_master where name = 'porter_migrations'");
          expect(ledger?.sql).to.equal(PREVIOUS_VERSION_LEDGER.sqlite);
        } else {
          const columns = await engine.sql(
            "select column_name, data_type, column_default, is_nullable from information_schema.columns where table_name = 'porter_migrations' order by ordinal_position",
          );
          expect(columns).to.deep.equal(POSTGRESQL_LEDGER_COLUMNS);
        }
        await store.records('x').put({ id: 'a', data: 1, refs: { owner: 'u' } });
        expect((await store.records('x').list({ refs: { owner: 'u' } })).items.map((r) => r.id)).to.deep.equal(['a']);
      });

      it('recognises a database the previous version migrated, and migrates nothing twice', async () => {
        await engine.migrateAsPreviousVersion();
        const { store, applied } = await open();
        // The previous version stopped at the initial schema: only what came after it is applied.
        const later = names().slice(1);
        expect(applied).to.deep.equal(later.length ? [later] : []);
        expect(await ledgerRows()).to.deep.equal(names().map((name, i) => ({ id: i + 1, name })));
        const notes = store.records<{ v: number }>('notes');
        expect((await notes.get('kept'))?.data).to.deep.equal({ v: 1 });
        expect((await notes.list({ refs: { owner: 'u1' } })).items.map((r) => r.id)).to.deep.equal(['kept']);
        expect((await notes.put({ id: 'kept', data: { v: 2 } })).revision).to.equal(2);
      });

      it('applies only what the database lacks, in order, one recorded row each', async () => {
        await open();
        const later: SqlMigration[] = [
          ...engine.migrations,
          { name: '9002-extra', statements: ['create table porter_extra (k text primary key)', "insert into porter_extra values ('a')"] },
          { name: '9003-more', statements: ['create table porter_more (k text primary key)'] },
        ];
        expect(await migrate(engine.ledger(), later)).to.deep.equal(['9002-extra', '9003-more']);
        expect(await migrate(engine.ledger(), later)).to.deep.equal([]);
        expect((await ledgerRows()).map((row) => row.name)).to.deep.equal([...names(), '9002-extra', '9003-more']);
        expect(await engine.sql('select k from porter_extra')).to.deep.equal([{ k: 'a' }]);
      });

      it('rolls a failing migration back alone, keeping the ones before it', async () => {
        await open();
        const good: SqlMigration = { name: '9002-good', statements: ['create table porter_good (k text primary key)'] };
        const bad: SqlMigration = { name: '9003-bad', statements: ['create table porter_half (k text primary key)', 'this is not sql'] };
        let failure: unknown = null;
        await migrate(engine.ledger(), [...engine.migrations, good, bad]).catch((error: unknown) => (failure = error));
        expect(failure).to.be.instanceOf(Error);
        expect((await ledgerRows()).map((row) => row.name)).to.deep.equal([...names(), '9002-good']);
        expect(await engine.sql('select k from porter_good')).to.deep.equal([]);
        const half =
          engineName === 'sqlite'
            ? "select name from sqlite_master where name = 'porter_half'"
            : "select to_regclass('porter_half') as name";
        expect((await engine.sql<{ name: string | null }>(half)).filter((row) => row.name)).to.deep.equal([]);
        const fixed: SqlMigration = { name: '9003-bad', statements: ['create table porter_half (k text primary key)'] };
        expect(await migrate(engine.ledger(), [...engine.migrations, good, fixed])).to.deep.equal(['9003-bad']);
      });

      it('migrates once when several instances boot at once', async () => {
        const booted = await Promise.all(Array.from({ length: 4 }, () => open()));
        // Instances take turns migration by migration: each is applied once, by one of them.
        const applied = booted.flatMap((each) => each.applied as string[][]).flat();
        expect([...applied].sort()).to.deep.equal([...names()].sort());
        expect(await ledgerRows()).to.deep.equal(names().map((name, i) => ({ id: i + 1, name })));
      });
    });
  }

  describe('on a SQLite file another process is writing to', () => {
    it('waits for the write lock, then migrates', async () => {
      const file = join(folder, `locked-${++files}.db`);
      new Database(file).close();
      const holder = await holdSqliteWriteLock(file);
      let opened = false;
      const opening = MikroOrmStore.open({ target: { engine: 'sqlite', file }, clock: new ManualClock() }).finally(() => (opened = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(opened, 'the store waits for the lock').to.equal(false);
      await holder.release();
      const store = await opening;
      try {
        expect((await store.records('x').put({ id: 'a', data: 1 })).revision).to.equal(1);
      } finally {
        await store.close();
      }
    });
  });
});
