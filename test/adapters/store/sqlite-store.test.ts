import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { MikroOrmStore } from '../../../adapters/store/mikro-orm/mikro-orm-store.js';
import { DEFAULT_BUSY_TIMEOUT_MS } from '../../../adapters/store/mikro-orm/orm-options.js';
import { MIGRATIONS_TABLE } from '../../../adapters/store/mikro-orm/record-schema.js';
import { ManualClock } from '../../support/manual-clock.js';
import { describeMikroOrmStoreBehaviour } from './mikro-orm-store-behaviour.js';
import { describeStoreConformance } from './store-conformance.js';

/** A second, plain sqlite3 connection to the file: what another process would see. */
function rawConnection(file: string): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, (error) => (error ? reject(error) : resolve(db)));
  });
}

function rawAll<R>(db: sqlite3.Database, sql: string): Promise<R[]> {
  return new Promise((resolve, reject) => db.all(sql, [], (error, rows) => (error ? reject(error) : resolve(rows as R[]))));
}

function rawClose(db: sqlite3.Database): Promise<void> {
  return new Promise((resolve, reject) => db.close((error) => (error ? reject(error) : resolve())));
}

describe('MikroORM store on SQLite', function () {
  let folder: string;
  let files = 0;
  const nextFile = () => join(folder, `store-${++files}.db`);

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'porter-sqlite-'));
  });

  after(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  describeStoreConformance('sqlite (file)', () => {
    const file = nextFile();
    return { open: (clock) => MikroOrmStore.open({ target: { engine: 'sqlite', file }, clock }), shared: true };
  });

  describeMikroOrmStoreBehaviour('sqlite (file)', () => {
    const file = nextFile();
    return (options) => MikroOrmStore.open({ target: { engine: 'sqlite', file }, ...options });
  });

  describe('on a file', () => {
    const opened: MikroOrmStore[] = [];
    const open = async (file: string) => {
      const store = await MikroOrmStore.open({ target: { engine: 'sqlite', file }, clock: new ManualClock() });
      opened.push(store);
      return store;
    };

    afterEach(async () => {
      while (opened.length) await opened.pop()!.close();
    });

    it('puts the file in WAL mode, which another connection then sees', async () => {
      const file = nextFile();
      await open(file);
      const other = await rawConnection(file);
      try {
        expect(await rawAll(other, 'pragma journal_mode')).to.deep.equal([{ journal_mode: 'wal' }]);
      } finally {
        await rawClose(other);
      }
    });

    it('sets a busy timeout on its connection', async () => {
      const store = await open(nextFile());
      expect(await store.mikroOrm.em.getConnection().execute('pragma busy_timeout')).to.deep.equal([{ timeout: DEFAULT_BUSY_TIMEOUT_MS }]);
    });

    it('waits for another process holding the write lock instead of failing', async () => {
      const file = nextFile();
      const store = await open(file);
      const other = await rawConnection(file);
      try {
        await rawAll(other, 'begin immediate');
        let settled = false;
        const put = store
          .records<{ n: number }>('waiting')
          .put({ id: 'w', data: { n: 1 } })
          .finally(() => (settled = true));
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(settled, 'the put waits while the lock is held').to.equal(false);
        await rawAll(other, 'commit');
        expect((await put).revision).to.equal(1);
      } finally {
        await rawClose(other);
      }
    });

    it('lets several instances open a new file at once, migrating it exactly once', async () => {
      const file = nextFile();
      const stores = await Promise.all(Array.from({ length: 4 }, () => open(file)));
      const rows = await stores[0]!.mikroOrm.em.getConnection().execute<Array<{ name: string }>>(`select name from ${MIGRATIONS_TABLE}`);
      expect(rows.map((row) => row.name)).to.deep.equal(['0001-initial-schema']);
      await stores[1]!.records('x').put({ id: 'a', data: 1 });
      expect((await stores[2]!.records('x').get('a'))?.data).to.equal(1);
    });

    it('leaves the schema alone when told not to migrate', async () => {
      const file = nextFile();
      const store = await MikroOrmStore.open({ target: { engine: 'sqlite', file }, clock: new ManualClock(), migrate: false });
      opened.push(store);
      const tables = await store.mikroOrm.em.getConnection().execute<Array<{ name: string }>>("select name from sqlite_master where type = 'table'");
      expect(tables).to.deep.equal([]);
      expect(existsSync(file)).to.equal(true);
    });
  });

  describeStoreConformance('sqlite (:memory:)', () => ({
    open: (clock) => MikroOrmStore.open({ target: { engine: 'sqlite', file: ':memory:' }, clock }),
    shared: false,
  }));
});
