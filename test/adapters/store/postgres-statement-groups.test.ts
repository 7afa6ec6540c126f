import { expect } from 'chai';
import pg from 'pg';
import { DomainError } from '../../../domain/errors.js';
import { MikroOrmStore } from '../../../adapters/store/mikro-orm/mikro-orm-store.js';
import { SystemClock } from '../../../adapters/runtime/system-clock.js';
import { PostgresqlRunner } from '../../../adapters/store/mikro-orm/postgresql-runner.js';
import type { DriverPool } from '../../../adapters/store/mikro-orm/sql-runner.js';
import type { Store } from '../../../ports/store.js';
import { createTestDatabase, driverPoolOf, postgresServerUrl, type TestDatabase } from '../../support/postgres.js';

/** The transaction that last wrote each record of `collection`, by id. */
async function writers(url: string, collection: string): Promise<Map<string, string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string; xmin: string }>('select id, xmin::text from porter_records where collection = $1', [
      collection,
    ]);
    return new Map(rows.map((row) => [row.id, row.xmin]));
  } finally {
    await client.end();
  }
}

describe('Statements sent together on PostgreSQL (Store.together)', function () {
  this.timeout(30_000);
  let database: TestDatabase | null = null;
  let store: Store | null = null;

  before(async function () {
    const server = await postgresServerUrl();
    if (!server) return this.skip();
    database = await createTestDatabase(server);
    store = await MikroOrmStore.open({ target: { engine: 'postgresql', url: database.url }, clock: new SystemClock() });
  });
  after(async () => {
    await store?.close();
    await database?.drop();
  });

  it('writes issued at once commit in one transaction; one after another, in one each', async () => {
    const records = store!.records<{ n: number }>('grouped');
    await store!.together!(() => Promise.all([1, 2, 3].map((n) => records.put({ id: `g${n}`, data: { n } }))));
    await records.put({ id: 'a1', data: { n: 1 } });
    await records.put({ id: 'a2', data: { n: 2 } });
    const xmin = await writers(database!.url, 'grouped');
    expect(new Set([xmin.get('g1'), xmin.get('g2'), xmin.get('g3')]).size).to.equal(1);
    expect(xmin.get('a1')).to.not.equal(xmin.get('a2'));
    expect(xmin.get('a1')).to.not.equal(xmin.get('g1'));
    expect((await records.get('g2'))?.data).to.deep.equal({ n: 2 });
  });

  it('a statement that fails fails alone: the others in its group are stored and answered', async () => {
    const pool = new pg.Pool({ connectionString: database!.url, max: 2 });
    const runner = new PostgresqlRunner(driverPoolOf(pool));
    try {
      await runner.changes({ sql: 'create table grouped_rows (id text primary key)', params: [] });
      const insert = (id: string) => runner.changes({ sql: 'insert into grouped_rows (id) values ($1)', params: [id] });
      const outcomes = await runner.together!(() =>
        Promise.allSettled([insert('first'), runner.rows({ sql: 'select 1 / $1::int as q', params: [0] }), insert('last')]),
      );
      expect(outcomes.map((outcome) => outcome.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
      expect((outcomes[1] as PromiseRejectedResult).reason).to.match(/division by zero/);
      expect((outcomes[0] as PromiseFulfilledResult<number>).value).to.equal(1);
      const stored = await runner.rows<{ id: string }>({ sql: 'select id from grouped_rows order by id', params: [] });
      expect(stored.map((row) => row.id)).to.deep.equal(['first', 'last']);
      // And a connection the group used is lent again in its ordinary state.
      expect(await runner.rows({ sql: 'select 2 as two', params: [] })).to.deep.equal([{ two: 2 }]);
    } finally {
      await runner.close();
      await pool.end();
    }
  });

  it('a database that cannot be reached fails the whole group at once, not once per statement after as long a wait', async () => {
    let borrowed = 0;
    const refusing: DriverPool<pg.ClientBase> = {
      acquire: async () => {
        borrowed += 1;
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
      },
      release: async () => undefined,
      discard: async () => undefined,
    };
    const runner = new PostgresqlRunner(refusing);
    const outcomes = await runner.together!(() =>
      Promise.allSettled([1, 2, 3].map((n) => runner.rows({ sql: 'select $1::int as n', params: [n] }))),
    );
    expect(outcomes.map((outcome) => outcome.status)).to.deep.equal(['rejected', 'rejected', 'rejected']);
    for (const outcome of outcomes)
      expect((outcome as PromiseRejectedResult).reason)
        .to.be.instanceOf(DomainError)
        .with.property('code', 'unavailable');
    expect(borrowed).to.equal(1);
  });

  it('racing groups swapping one record at one revision: exactly one wins, and each group’s other writes hold', async () => {
    const records = store!.records<{ by: string }>('raced');
    const first = await records.put({ id: 'contested', data: { by: 'nobody' } });
    const racers = Array.from({ length: 8 }, (_, i) => `racer${i}`);
    const outcomes = await Promise.all(
      racers.map((by) =>
        store!.together!(() =>
          Promise.all([
            records.atomic!.compareAndSwap('contested', first.revision, { data: { by } }),
            records.put({ id: by, data: { by } }),
          ]),
        ),
      ),
    );
    const winners = outcomes.filter(([swapped]) => swapped !== null);
    expect(winners).to.have.length(1);
    expect((await records.get('contested'))?.data.by).to.equal(winners[0]![0]!.data.by);
    for (const by of racers) expect((await records.get(by))?.data.by).to.equal(by);
  });

  it('what the work leaves for later (a timer it set) is sent alone once the group is over', async () => {
    const records = store!.records<{ n: number }>('later');
    let later: Promise<unknown> | null = null;
    await store!.together!(async () => {
      await records.put({ id: 'now', data: { n: 1 } });
      later = new Promise((resolve) => setTimeout(resolve, 20)).then(() => records.put({ id: 'later', data: { n: 2 } }));
    });
    await later;
    expect((await records.get('later'))?.data.n).to.equal(2);
  });

  describe('lone statements issued at once by different callers', () => {
    let pool: pg.Pool;
    let runner: PostgresqlRunner;
    const lent = { borrowed: 0, discarded: 0 };

    beforeEach(async () => {
      pool = new pg.Pool({ connectionString: database!.url, max: 4, query_timeout: 1_000 });
      const inner = driverPoolOf(pool);
      lent.borrowed = 0;
      lent.discarded = 0;
      runner = new PostgresqlRunner({
        acquire: () => {
          lent.borrowed += 1;
          return inner.acquire();
        },
        release: (client) => inner.release(client),
        discard: (client) => {
          lent.discarded += 1;
          return inner.discard(client);
        },
      });
      await runner.changes({ sql: 'create table if not exists lone_rows (id text primary key)', params: [] });
      await runner.changes({ sql: 'truncate lone_rows', params: [] });
      lent.borrowed = 0;
    });
    afterEach(async () => {
      await runner.close();
      await pool.end();
    });

    const insert = (id: string) => runner.changes({ sql: 'insert into lone_rows (id) values ($1)', params: [id] });
    const xminOf = async () =>
      new Map(
        (await runner.rows<{ id: string; xmin: string }>({ sql: 'select id, xmin::text from lone_rows', params: [] })).map((row) => [
          row.id,
          row.xmin,
        ]),
      );

    it('share one connection and one write, each still its own transaction: one that fails fails alone', async () => {
      const outcomes = await Promise.allSettled([
        insert('a'),
        insert('b'),
        runner.rows({ sql: 'select 1 / $1::int as q', params: [0] }),
        insert('a'), // a duplicate: refused, alone
        insert('c'),
      ]);
      expect(outcomes.map((outcome) => outcome.status)).to.deep.equal(['fulfilled', 'fulfilled', 'rejected', 'rejected', 'fulfilled']);
      expect((outcomes[2] as PromiseRejectedResult).reason).to.match(/division by zero/);
      expect((outcomes[3] as PromiseRejectedResult).reason).to.match(/duplicate key/);
      expect(lent.borrowed).to.equal(1);
      const xmin = await xminOf();
      expect([...xmin.keys()].sort()).to.deep.equal(['a', 'b', 'c']);
      expect(new Set(xmin.values()).size, 'one transaction each').to.equal(3);
      // The connection is lent again in its ordinary state, and kept.
      expect(await runner.rows({ sql: 'select 2 as two', params: [] })).to.deep.equal([{ two: 2 }]);
      expect(lent.discarded).to.equal(0);
    });

    it('groups and lone statements of different callers at once share one write, each group one transaction; a failing group is sent again alone', async () => {
      const outcomes = await Promise.all([
        runner.together!(() => Promise.all([insert('g1a'), insert('g1b')])),
        runner.together!(() =>
          Promise.allSettled([insert('g2a'), runner.rows({ sql: 'select 1 / $1::int as q', params: [0] }), insert('g2b')]),
        ),
        insert('lone'),
      ]);
      expect(lent.borrowed, 'one pipeline for all, then the failed group statement by statement').to.equal(4);
      const second = outcomes[1] as PromiseSettledResult<unknown>[];
      expect(second.map((outcome) => outcome.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
      const xmin = await xminOf();
      expect([...xmin.keys()].sort()).to.deep.equal(['g1a', 'g1b', 'g2a', 'g2b', 'lone']);
      expect(xmin.get('g1a')).to.equal(xmin.get('g1b'));
      expect(xmin.get('g2a'), 'sent again alone').to.not.equal(xmin.get('g2b'));
      expect(new Set([xmin.get('g1a'), xmin.get('g2a'), xmin.get('g2b'), xmin.get('lone')]).size).to.equal(4);
    });

    it('beyond 32 at once go on more connections, so a slow one holds few others behind it', async () => {
      await Promise.all(Array.from({ length: 70 }, (_, i) => insert(`r${i}`)));
      expect(lent.borrowed).to.equal(3);
      expect((await xminOf()).size).to.equal(70);
    });

    it('one the server leaves unanswered past the deadline throws its connection away; the rest are told the database did not answer', async () => {
      const outcomes = await Promise.allSettled([
        insert('before'),
        runner.rows({ sql: 'select pg_sleep($1::float)', params: [3] }),
        insert('behind'),
      ]);
      expect(outcomes[0]!.status).to.equal('fulfilled');
      for (const outcome of outcomes.slice(1))
        expect((outcome as PromiseRejectedResult).reason)
          .to.be.instanceOf(DomainError)
          .with.property('code', 'unavailable');
      expect(lent.discarded).to.equal(1);
      // The next statements get a working connection.
      expect(await runner.rows({ sql: 'select 3 as three', params: [] })).to.deep.equal([{ three: 3 }]);
    });

    it('a database that cannot be reached fails them at once, borrowing once', async () => {
      let borrowed = 0;
      const refusing = new PostgresqlRunner({
        acquire: async () => {
          borrowed += 1;
          throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
        },
        release: async () => undefined,
        discard: async () => undefined,
      });
      const outcomes = await Promise.allSettled([1, 2, 3].map((n) => refusing.rows({ sql: 'select $1::int as n', params: [n] })));
      for (const outcome of outcomes)
        expect((outcome as PromiseRejectedResult).reason)
          .to.be.instanceOf(DomainError)
          .with.property('code', 'unavailable');
      expect(borrowed).to.equal(1);
    });
  });
});
