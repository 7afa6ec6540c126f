import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { DomainError } from '../../../domain/errors.js';
import { MikroOrmStore } from '../../../adapters/store/mikro-orm/mikro-orm-store.js';
import { MIGRATIONS_TABLE } from '../../../adapters/store/mikro-orm/record-schema.js';
import { SQLITE_MIGRATIONS } from '../../../adapters/store/mikro-orm/migrations/sqlite/migration-list.js';
import { ManualClock } from '../../support/manual-clock.js';
import { holdSqliteWriteLock } from '../../support/sqlite-lock-holder.js';
import { describeMikroOrmStoreBehaviour } from './mikro-orm-store-behaviour.js';
import { describeStoreConformance } from './store-conformance.js';
import { closedAfter } from '../../support/closed-after.js';

/**
 * A second libsql connection to the file, in this process: what another process would see. (Only
 * the same SQLite library sees this process's locks: a second copy, such as sqlite3's, would not.)
 */
function rawRows<R>(file: string, sql: string): R[] {
  const db = new Database(file);
  try {
    return db.prepare(sql).all() as R[];
  } finally {
    db.close();
  }
}

/** Resolves after `ms` on a timer, answering how late the timer fired. */
async function lateness(ms: number): Promise<number> {
  const due = performance.now() + ms;
  await new Promise((resolve) => setTimeout(resolve, ms));
  return performance.now() - due;
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
    const opened = closedAfter<MikroOrmStore>({ each: true });
    const open = async (file: string) => {
      const store = await MikroOrmStore.open({ target: { engine: 'sqlite', file }, clock: new ManualClock() });
      opened.push(store);
      return store;
    };

    it('puts the file in WAL mode, which another connection then sees', async () => {
      const file = nextFile();
      await open(file);
      expect(rawRows(file, 'pragma journal_mode')).to.deep.equal([{ journal_mode: 'wal' }]);
    });

    it('waits for another process holding the write lock instead of failing', async () => {
      const file = nextFile();
      const store = await open(file);
      const holder = await holdSqliteWriteLock(file);
      let settled = false;
      const put = store
        .records<{ n: number }>('waiting')
        .put({ id: 'w', data: { n: 1 } })
        .finally(() => (settled = true));
      try {
        await lateness(300);
        expect(settled, 'the put waits while the lock is held').to.equal(false);
      } finally {
        await holder.release();
      }
      expect((await put).revision).to.equal(1);
    });

    it('keeps the event loop running while it waits for that lock', async () => {
      const file = nextFile();
      const store = await open(file);
      const holder = await holdSqliteWriteLock(file);
      const writes = Promise.allSettled([1, 2, 3].map((n) => store.records<{ n: number }>('waiting').put({ id: `w${n}`, data: { n } })));
      const late: number[] = [];
      try {
        // A driver waiting on SQLite's own busy handler would hold the thread for the whole busy
        // timeout (5 s): the first timer would fire that late. The bound leaves room for a loaded machine.
        for (let i = 0; i < 15; i++) late.push(await lateness(20));
      } finally {
        await holder.release();
      }
      expect(Math.max(...late), `timer lateness: ${late.map((ms) => ms.toFixed(1)).join(', ')} ms`).to.be.below(250);
      expect((await writes).map((outcome) => outcome.status)).to.deep.equal(['fulfilled', 'fulfilled', 'fulfilled']);
    });

    it('lets timers fire during a long run of back-to-back statements', async () => {
      const store = await open(nextFile());
      const set = store.records<{ n: number }>('bulk');
      let fired = 0;
      const timer = setInterval(() => fired++, 2);
      let n = 0;
      try {
        // Each put completes synchronously: without the runner's yields this loop would never let the
        // timer run. Counted in puts, not time: a busy machine gives the loop less of each millisecond.
        while (fired <= 5 && n < 20_000) await set.put({ id: `r${n % 50}`, data: { n: n++ } });
      } finally {
        clearInterval(timer);
      }
      expect(fired, `timer fired ${fired} times during ${n} puts`).to.be.greaterThan(5);
    });

    it('gives up with Unavailable once the busy timeout has passed', async () => {
      const file = nextFile();
      const store = await MikroOrmStore.open({ target: { engine: 'sqlite', file }, clock: new ManualClock(), busyTimeoutMs: 200 });
      opened.push(store);
      const holder = await holdSqliteWriteLock(file);
      const started = performance.now();
      try {
        await store.records('waiting').put({ id: 'w', data: 1 });
        expect.fail('expected Unavailable');
      } catch (error) {
        expect(error).to.be.instanceOf(DomainError);
        expect((error as DomainError).code).to.equal('unavailable');
        expect(performance.now() - started).to.be.within(190, 2_000);
      } finally {
        await holder.release();
      }
      expect((await store.records('waiting').put({ id: 'w', data: 2 })).revision).to.equal(1);
    });

    it('lets several instances open a new file at once, migrating it exactly once', async () => {
      const file = nextFile();
      const stores = await Promise.all(Array.from({ length: 4 }, () => open(file)));
      const rows = await stores[0]!.mikroOrm.em.getConnection().execute<Array<{ name: string }>>(`select name from ${MIGRATIONS_TABLE}`);
      expect(rows.map((row) => row.name)).to.deep.equal(SQLITE_MIGRATIONS.map((migration) => migration.name));
      await stores[1]!.records('x').put({ id: 'a', data: 1 });
      expect((await stores[2]!.records('x').get('a'))?.data).to.equal(1);
    });

    it('leaves the schema alone when told not to migrate', async () => {
      const file = nextFile();
      const store = await MikroOrmStore.open({ target: { engine: 'sqlite', file }, clock: new ManualClock(), migrate: false });
      opened.push(store);
      const tables = await store.mikroOrm.em
        .getConnection()
        .execute<Array<{ name: string }>>("select name from sqlite_master where type = 'table'");
      expect(tables).to.deep.equal([]);
      expect(existsSync(file)).to.equal(true);
    });
  });

  describeStoreConformance('sqlite (:memory:)', () => ({
    open: (clock) => MikroOrmStore.open({ target: { engine: 'sqlite', file: ':memory:' }, clock }),
    shared: false,
  }));
});
