import type { CursorPosition } from '../shared/cursor.js';
import type { SqlDialect } from './sql-dialect.js';
import type { SqlStatement } from './sql-statement.js';

/** The columns every record read returns, in the shape the driver hands them back. */
export interface RecordColumns {
  readonly id: string;
  readonly data: unknown;
  readonly refs: unknown;
  readonly revision: number;
  readonly created_at: unknown;
  readonly updated_at: unknown;
}

/** What a write hands back: enough, with what was written, to describe the stored record. */
export interface WrittenColumns {
  readonly revision: number;
  readonly created_at: unknown;
  readonly refs?: unknown;
}

/** A record's data and refs as the JSON text that is stored. */
export interface EncodedRecord {
  readonly data: string;
  readonly refs: string;
}

/**
 * The SQL of every record operation, shared by SQLite and PostgreSQL (the bench runs these same
 * statements through the raw drivers). Each write is ONE statement: triggers keep the refs table in
 * step, so a write is atomic on its own and the conditional ones (claim, swap, insert-if-absent)
 * decide their single winner in the database.
 */
export interface RecordStatements {
  get(collection: string, id: string): SqlStatement;
  /** Insert or overwrite; returns WrittenColumns. */
  put(collection: string, id: string, record: EncodedRecord, now: number): SqlStatement;
  /** Insert unless the id exists; returns WrittenColumns, or no row when it existed. */
  insertIfAbsent(collection: string, id: string, record: EncodedRecord, now: number): SqlStatement;
  /** Insert every row whose id is absent, in one statement; returns `id` plus WrittenColumns for each row inserted. */
  insertManyIfAbsent(collection: string, rows: ReadonlyArray<{ id: string; record: EncodedRecord }>, now: number): SqlStatement;
  /** Replace when the revision still matches; refs null keeps the current ones. Returns WrittenColumns with refs, or no row. */
  swap(collection: string, id: string, expectedRevision: number, data: string, refs: string | null, now: number): SqlStatement;
  /** Delete when the revision still matches; affects one row or none. */
  consume(collection: string, id: string, expectedRevision: number): SqlStatement;
  delete(collection: string, id: string): SqlStatement;
  /** Up to `limit` RecordColumns rows after `after`, newest first, matching every ref. */
  list(collection: string, refs: ReadonlyArray<readonly [string, string]>, after: CursorPosition | null, limit: number): SqlStatement;
}

const COLUMNS = 'id, data, refs, revision, created_at, updated_at';
const INSERT = 'insert into porter_records (collection, id, data, refs, revision, created_at, updated_at) values (?, ?, ?, ?, 1, ?, ?)';

export function recordStatements(dialect: SqlDialect): RecordStatements {
  const sql = (text: string) => dialect.placeholders(text);
  const get = sql(`select ${COLUMNS} from porter_records where collection = ? and id = ?`);
  const put = sql(
    `${INSERT} on conflict (collection, id) do update set data = excluded.data, refs = excluded.refs, ` +
      'revision = porter_records.revision + 1, updated_at = excluded.updated_at returning revision, created_at',
  );
  const insertIfAbsent = sql(`${INSERT} on conflict (collection, id) do nothing returning revision, created_at`);
  const swapWhere = 'where collection = ? and id = ? and revision = ? returning refs, revision, created_at';
  const swapAll = sql(`update porter_records set data = ?, refs = ?, revision = revision + 1, updated_at = ? ${swapWhere}`);
  const swapData = sql(`update porter_records set data = ?, revision = revision + 1, updated_at = ? ${swapWhere}`);
  const consume = sql('delete from porter_records where collection = ? and id = ? and revision = ?');
  const remove = sql('delete from porter_records where collection = ? and id = ?');
  const lists = new Map<string, string>();
  const manyInserts = new Map<number, string>();
  const insertManySql = (count: number): string => {
    let text = manyInserts.get(count);
    if (!text) {
      const values = Array.from({ length: count }, () => '(?, ?, ?, ?, 1, ?, ?)').join(', ');
      text = sql(
        `insert into porter_records (collection, id, data, refs, revision, created_at, updated_at) values ${values} on conflict (collection, id) do nothing returning id, revision, created_at`,
      );
      manyInserts.set(count, text);
    }
    return text;
  };

  const listSql = (refCount: number, paged: boolean): string => {
    const key = `${refCount}:${paged}`;
    let text = lists.get(key);
    if (!text) {
      text = sql(refCount === 0 ? listAll(paged) : listByRefs(refCount, paged));
      lists.set(key, text);
    }
    return text;
  };

  return {
    get: (collection, id) => ({ sql: get, params: [collection, id] }),
    put: (collection, id, record, now) => ({ sql: put, params: [collection, id, record.data, record.refs, now, now] }),
    insertIfAbsent: (collection, id, record, now) => ({
      sql: insertIfAbsent,
      params: [collection, id, record.data, record.refs, now, now],
    }),
    insertManyIfAbsent: (collection, rows, now) => ({
      sql: insertManySql(rows.length),
      params: rows.flatMap(({ id, record }) => [collection, id, record.data, record.refs, now, now]),
    }),
    swap: (collection, id, expectedRevision, data, refs, now) =>
      refs === null
        ? { sql: swapData, params: [data, now, collection, id, expectedRevision] }
        : { sql: swapAll, params: [data, refs, now, collection, id, expectedRevision] },
    consume: (collection, id, expectedRevision) => ({ sql: consume, params: [collection, id, expectedRevision] }),
    delete: (collection, id) => ({ sql: remove, params: [collection, id] }),
    list: (collection, refs, after, limit) => {
      const params: unknown[] = [collection];
      const [first, ...rest] = refs;
      if (first) params.push(first[0], first[1]);
      if (after) params.push(after.createdAt, after.id);
      for (const [name, value] of rest) params.push(name, value);
      params.push(limit);
      return { sql: listSql(refs.length, after !== null), params };
    },
  };
}

/** Newest first within one collection, walking porter_records_listing backwards. */
function listAll(paged: boolean): string {
  return (
    `select ${COLUMNS} from porter_records where collection = ?` +
    (paged ? ' and (created_at, id) < (?, ?)' : '') +
    ' order by created_at desc, id desc limit ?'
  );
}

/**
 * The first ref drives: its slice of porter_record_refs_lookup is already in page order, so the
 * database reads about one page of it; every further ref is a primary-key probe per candidate. The
 * page is cut inside the subquery, so the join to porter_records touches at most one page of rows
 * whatever the planner thinks of the collection's size.
 */
function listByRefs(refCount: number, paged: boolean): string {
  const extra = Array.from(
    { length: refCount - 1 },
    (_, i) =>
      ` and exists (select 1 from porter_record_refs g${i} where g${i}.collection = f.collection` +
      ` and g${i}.record_id = f.record_id and g${i}.name = ? and g${i}."value" = ?)`,
  ).join('');
  return (
    'select r.id, r.data, r.refs, r.revision, r.created_at, r.updated_at from (' +
    'select f.collection, f.record_id, f.created_at from porter_record_refs f ' +
    'where f.collection = ? and f.name = ? and f."value" = ?' +
    (paged ? ' and (f.created_at, f.record_id) < (?, ?)' : '') +
    extra +
    ' order by f.created_at desc, f.record_id desc limit ?' +
    ') p join porter_records r on r.collection = p.collection and r.id = p.record_id ' +
    'order by p.created_at desc, p.record_id desc'
  );
}
