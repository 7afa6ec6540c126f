import { expect } from 'chai';
import { mkdtemp, open as openFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { DomainError } from '../../../domain/errors.js';
import { storeError } from '../../../adapters/store/mikro-orm/store-errors.js';

/** The error libsql throws for `work`, as the store's runner would catch it. */
function thrown(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  return expect.fail('expected libsql to throw');
}

/** `work` fails with the driver's `driverCode`, and the store maps that to unavailable, keeping it as the cause. */
function expectUnavailable(work: () => unknown, driverCode: string): void {
  const error = thrown(work);
  expect(error, 'the driver error').to.have.property('code', driverCode);
  const mapped = storeError(error);
  expect(mapped).to.be.instanceOf(DomainError);
  expect((mapped as DomainError).code).to.equal('unavailable');
  expect((mapped as Error).cause).to.equal(error);
}

describe('SQLite errors as libsql reports them', () => {
  let folder: string;
  let files = 0;
  const open: Database.Database[] = [];
  const connect = (file = join(folder, `errors-${++files}.db`)) => {
    const db = new Database(file);
    open.push(db);
    return db;
  };

  /** Two connections to one new WAL-mode file whose table `t` the first made. */
  const walPair = () => {
    const file = join(folder, `errors-${++files}.db`);
    const first = connect(file);
    first.exec('pragma journal_mode = wal; create table t (k text primary key)');
    return [first, connect(file)] as const;
  };

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'porter-store-errors-'));
  });

  afterEach(() => {
    while (open.length) open.pop()!.close();
  });

  after(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('maps a write lock another connection holds (SQLITE_BUSY) to unavailable', () => {
    const [holder, waiting] = walPair();
    holder.exec('begin immediate');
    expectUnavailable(() => waiting.prepare("insert into t values ('a')").run(), 'SQLITE_BUSY');
    holder.exec('commit');
  });

  it('maps a stale read snapshot that cannot write (SQLITE_BUSY_SNAPSHOT) to unavailable', () => {
    const [writer, reader] = walPair();
    reader.exec('begin');
    reader.prepare('select * from t').all();
    writer.prepare("insert into t values ('a')").run();
    expectUnavailable(() => reader.prepare("insert into t values ('b')").run(), 'SQLITE_BUSY_SNAPSHOT');
    reader.exec('rollback');
  });

  it('maps a full database (SQLITE_FULL) to unavailable', () => {
    const db = connect();
    db.exec('create table big (b blob); pragma max_page_count = 3');
    expectUnavailable(() => db.prepare('insert into big values (zeroblob(100000))').run(), 'SQLITE_FULL');
  });

  it('maps a read-only database (SQLITE_READONLY) to unavailable', () => {
    const db = connect();
    db.exec('create table t (k text); pragma query_only = 1');
    expectUnavailable(() => db.prepare("insert into t values ('a')").run(), 'SQLITE_READONLY');
  });

  it('maps a file that is not a database (SQLITE_NOTADB) and a damaged one (SQLITE_CORRUPT) to unavailable', async () => {
    const foreign = join(folder, `errors-${++files}.db`);
    await writeFile(foreign, 'not a database, just text '.repeat(200));
    expectUnavailable(() => connect(foreign).prepare('select * from sqlite_master').all(), 'SQLITE_NOTADB');

    const damaged = join(folder, `errors-${++files}.db`);
    const db = new Database(damaged);
    db.exec('create table t (v blob); begin');
    for (let i = 0; i < 200; i++) db.exec('insert into t values (randomblob(500))');
    db.exec('commit');
    db.close();
    // Pages past the first overwritten: the header still says SQLite, the b-tree is garbage.
    const handle = await openFile(damaged, 'r+');
    await handle.write(Buffer.alloc(8_000, 0x41), 0, 8_000, 4_096);
    await handle.close();
    expectUnavailable(() => connect(damaged).prepare('select count(*) from t where v > 0').all(), 'SQLITE_CORRUPT');
  });

  it('maps a closed connection to unavailable', () => {
    const db = new Database(join(folder, `errors-${++files}.db`));
    db.close();
    const error = thrown(() => db.prepare('select 1'));
    const mapped = storeError(error);
    expect(mapped).to.be.instanceOf(DomainError);
    expect((mapped as DomainError).code).to.equal('unavailable');
  });

  it('maps PostgreSQL statement and lock timeouts (57014, 55P03) and a pool that gave no connection in time to unavailable', () => {
    const timeouts = [
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      Object.assign(new Error('could not obtain lock'), { code: '55P03' }),
    ];
    const poolTimeout = Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), {
      name: 'KnexTimeoutError',
    });
    for (const error of [...timeouts, poolTimeout]) expect((storeError(error) as DomainError).code, error.message).to.equal('unavailable');
  });

  it("maps pg's own deadlines, a statement unanswered past query_timeout and a connection not made in connectionTimeoutMillis, to unavailable", () => {
    const unanswered = storeError(new Error('Query read timeout')) as DomainError;
    expect(unanswered.code).to.equal('unavailable');
    expect(unanswered.message).to.equal('The store database did not answer in time');
    const notConnected = storeError(new Error('timeout expired')) as DomainError;
    expect(notConnected.code).to.equal('unavailable');
    expect(notConnected.message).to.equal('The store database cannot be reached');
  });

  it("leaves a constraint failure and a bad statement as they are: those are the statement's own", () => {
    const db = connect();
    db.exec("create table t (k text primary key, v text not null); insert into t values ('a', 'x')");
    for (const [sql, code] of [
      ["insert into t values ('a', 'y')", 'SQLITE_CONSTRAINT_PRIMARYKEY'],
      ["insert into t values ('b', null)", 'SQLITE_CONSTRAINT_NOTNULL'],
      ['selec 1', 'SQLITE_ERROR'],
    ] as const) {
      const error = thrown(() => db.prepare(sql).run());
      expect(error, sql).to.have.property('code', code);
      expect(storeError(error), sql).to.equal(error);
    }
  });
});
