import { expect } from 'chai';
import pg from 'pg';
import { MikroOrmStore } from '../../../adapters/store/mikro-orm/mikro-orm-store.js';
import { PostgresqlRunner } from '../../../adapters/store/mikro-orm/postgresql-runner.js';
import { PostgresqlStatistics } from '../../../adapters/store/mikro-orm/postgresql-statistics.js';
import { SystemClock } from '../../../adapters/runtime/system-clock.js';
import type { Store } from '../../../ports/store.js';
import { eventually } from '../../support/eventually.js';
import { createTestDatabase, driverPoolOf, postgresServerUrl, type TestDatabase } from '../../support/postgres.js';

interface Analyzed {
  readonly analyzes: number;
  readonly changedSince: number;
}

describe("PostgreSQL: the store keeps its tables' planner statistics fresh", function () {
  this.timeout(60_000);
  let database: TestDatabase | null = null;
  let store: Store | null = null;
  let admin: pg.Client | null = null;
  const pools: pg.Pool[] = [];

  before(async function () {
    const server = await postgresServerUrl();
    if (!server) return this.skip();
    database = await createTestDatabase(server);
    store = await MikroOrmStore.open({ target: { engine: 'postgresql', url: database.url }, clock: new SystemClock() });
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });
  after(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await admin?.end();
    await store?.close();
    await database?.drop();
  });

  /** An instance's statistics keeper, on a pool of its own. */
  const instance = () => {
    const pool = new pg.Pool({ connectionString: database!.url, max: 2 });
    pools.push(pool);
    return new PostgresqlStatistics(new PostgresqlRunner(driverPoolOf(pool)), undefined);
  };

  /** How often each table was analyzed (by anyone, autovacuum included), and how many rows changed since. */
  async function analyzed(table: string): Promise<Analyzed> {
    const { rows } = await admin!.query<{ analyzes: string; changed: string }>(
      'select analyze_count + autoanalyze_count as analyzes, n_mod_since_analyze as changed from pg_stat_user_tables where relname = $1',
      [table],
    );
    return { analyzes: Number(rows[0]!.analyzes), changedSince: Number(rows[0]!.changed) };
  }

  /** Whether some session holds the keepers' advisory lock on this database now. */
  async function statisticsLockHeld(): Promise<boolean> {
    const { rows } = await admin!.query<{ held: boolean }>(
      "select exists (select 1 from pg_locks where locktype = 'advisory' and granted and objsubid = 1 " +
        "and objid::bigint = hashtext('porter.statistics')::bigint & 4294967295 " +
        'and database = (select oid from pg_database where datname = current_database())) as held',
    );
    return rows[0]!.held;
  }

  it('analyzes a table once it grew past a tenth since last analyzed, one instance of several racing, and not again until it grows', async () => {
    const start = { refs: await analyzed('porter_record_refs'), records: await analyzed('porter_records') };
    const notes = store!.records<{ n: number }>('notes');
    for (let first = 0; first < 400; first += 50)
      await store!.together!(() =>
        Promise.all(Array.from({ length: 50 }, (_, i) => notes.put({ id: `n${first + i}`, data: { n: i }, refs: { owner: `o${i % 7}` } }))),
      );
    // Backends report their changes to the statistics a moment after their transactions end (and
    // the store's own keeper may have got there first).
    const seen = async () => {
      const now = await analyzed('porter_record_refs');
      return now.changedSince >= 400 || now.analyzes > start.refs.analyzes;
    };
    expect(await eventually(seen, 20_000)).to.equal(true);

    const three = [instance(), instance(), instance()];
    const race = async () => {
      await Promise.all(three.map((keeper) => keeper.analyzeStale()));
      // The store's own keeper (every 10 s) is a fourth racer: what it does is counted once it is done.
      expect(await eventually(async () => !(await statisticsLockHeld()))).to.equal(true);
      return analyzed('porter_record_refs');
    };
    let refs = await race();
    // Had the store's keeper held the lock as they raced, having read the statistics a moment
    // before the inserts showed in them, nobody analyzed: they race again.
    if (refs.analyzes === start.refs.analyzes) refs = await race();
    expect(refs.analyzes - start.refs.analyzes, 'analyzes of the refs').to.equal(1);
    expect(refs.changedSince).to.equal(0);
    expect((await analyzed('porter_records')).analyzes - start.records.analyzes, 'analyzes of the records').to.equal(1);

    // Nothing changed since: nothing to do.
    await three[0]!.analyzeStale();
    expect((await analyzed('porter_record_refs')).analyzes).to.equal(refs.analyzes);
  });

  it('plans a list by refs from the lookup index once analyzed, however many records share a ref', async () => {
    // Every note of one owner carries the same state: a plan that walks the notes of that state
    // and filters by owner reads them all.
    const tasks = store!.records<{ n: number }>('tasks');
    const inserted = async () =>
      Number(
        (await admin!.query<{ n: string }>("select n_tup_ins as n from pg_stat_user_tables where relname = 'porter_record_refs'")).rows[0]!
          .n,
      );
    const before = await inserted();
    for (let start = 0; start < 2000; start += 100)
      await store!.together!(() =>
        Promise.all(
          Array.from({ length: 100 }, (_, i) =>
            tasks.put({ id: `t${start + i}`, data: { n: i }, refs: { owner: `p${start + i}`, state: 'open' } }),
          ),
        ),
      );
    // Once the backends have reported every insert, the table is stale unless the store's own
    // keeper (every 10 s) analyzed it meanwhile, and then with most of the rows there.
    expect(await eventually(async () => (await inserted()) - before >= 4000, 20_000)).to.equal(true);
    await instance().analyzeStale();
    const listed = await tasks.list({ refs: { owner: 'p1234', state: 'open' }, limit: 10 });
    expect(listed.items.map((task) => task.id)).to.deep.equal(['t1234']);

    // The plan PostgreSQL keeps for a prepared statement (generic: made without the values).
    const client = new pg.Client({ connectionString: database!.url });
    await client.connect();
    try {
      await client.query('set plan_cache_mode = force_generic_plan');
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        'explain select f.record_id from porter_record_refs f where f.collection = $1 and f.name = $2 and f."value" = $3 ' +
          'and exists (select 1 from porter_record_refs g0 where g0.collection = f.collection and g0.record_id = f.record_id and g0.name = $4 and g0."value" = $5) ' +
          'order by f.created_at desc, f.record_id desc limit $6',
        ['tasks', 'owner', 'p1234', 'state', 'open', 10],
      );
      const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
      expect(plan, plan).to.contain('porter_record_refs_lookup');
      // The second ref is a probe of one record's refs, not a walk of every record with that ref.
      expect(plan, plan).to.match(/record_id = f\.record_id/);
    } finally {
      await client.end();
    }
  });
});
