import type { AtomicRecordOps, ListQuery, Page, RecordInput, RecordSet, Replacement, StoredRecord } from '../../../ports/store.js';
import type { Clock } from '../../../ports/clock.js';
import { decodeCursor, encodeCursor, pageSize } from '../shared/cursor.js';
import { areStorableRefs, assertStorableRecord, isStorableText } from '../shared/storable-text.js';
import type { EncodedRecord, RecordColumns, RecordStatements, WrittenColumns } from './record-statements.js';
import { isoFromMillis } from './iso-time.js';
import type { SqlDialect } from './sql-dialect.js';
import type { SqlRunner } from './sql-runner.js';

/** Rows per multi-row insert: 6 bound values each, far below SQLite's and PostgreSQL's limits. */
const INSERT_CHUNK = 500;

/** What every record set of one store shares. */
export interface RecordSetContext {
  readonly runner: SqlRunner;
  readonly statements: RecordStatements;
  readonly dialect: SqlDialect;
  readonly clock: Clock;
}

/**
 * A record set over porter_records. Every operation is one statement, so claim, compareAndSwap and
 * insertIfAbsent are decided by the database: one winner however many callers or processes race.
 */
export class MikroOrmRecordSet<T> implements RecordSet<T> {
  readonly claim: (expected: StoredRecord<T>, replacement?: Replacement<T>) => Promise<boolean>;
  readonly atomic: AtomicRecordOps<T>;

  constructor(
    private readonly collection: string,
    private readonly context: RecordSetContext,
  ) {
    this.claim = async (expected, replacement) => {
      const { runner, statements } = this.context;
      if (!isStorableText(expected.id)) return false;
      if (!replacement) return (await runner.changes(statements.consume(this.collection, expected.id, expected.revision))) > 0;
      return (await this.swap(expected.id, expected.revision, replacement)) !== null;
    };
    this.atomic = {
      insertIfAbsent: async (input) => {
        assertStorableRecord(input);
        const encoded = encode(input.data, input.refs ?? {});
        const now = this.context.clock.now().getTime();
        const [written] = await this.context.runner.rows<WrittenColumns>(
          this.context.statements.insertIfAbsent(this.collection, input.id, encoded, now),
        );
        return written ? this.written(input.id, encoded.data, JSON.parse(encoded.refs), written, now) : null;
      },
      insertManyIfAbsent: async (inputs) => {
        for (const input of inputs) assertStorableRecord(input);
        const inserted: StoredRecord<T>[] = [];
        const seen = new Set<string>();
        // In id order: two batches that overlap then take their row locks in the same order and
        // never wait on each other in a cycle (PostgreSQL would otherwise report a deadlock).
        inputs = inputs
          .filter((input) => !seen.has(input.id) && seen.add(input.id))
          .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        // One statement per chunk keeps every engine under its bound-parameter limit.
        for (let start = 0; start < inputs.length; start += INSERT_CHUNK) {
          const chunk = inputs
            .slice(start, start + INSERT_CHUNK)
            .map((input) => ({ id: input.id, record: encode(input.data, input.refs ?? {}) }));
          const byId = new Map(chunk.map((row) => [row.id, row.record]));
          const now = this.context.clock.now().getTime();
          const written = await this.context.runner.rows<WrittenColumns & { id: string }>(
            this.context.statements.insertManyIfAbsent(this.collection, chunk, now),
          );
          for (const row of written) {
            const record = byId.get(row.id)!;
            inserted.push(this.written(row.id, record.data, JSON.parse(record.refs), row, now));
          }
        }
        return inserted;
      },
      compareAndSwap: (id, expectedRevision, replacement) => this.swap(id, expectedRevision, replacement),
    };
  }

  async get(id: string): Promise<StoredRecord<T> | null> {
    if (!isStorableText(id)) return null;
    const [row] = await this.context.runner.rows<RecordColumns>(this.context.statements.get(this.collection, id));
    return row ? this.read(row) : null;
  }

  async put(input: RecordInput<T>): Promise<StoredRecord<T>> {
    assertStorableRecord(input);
    const encoded = encode(input.data, input.refs ?? {});
    const now = this.context.clock.now().getTime();
    const [written] = await this.context.runner.rows<WrittenColumns>(this.context.statements.put(this.collection, input.id, encoded, now));
    return this.written(input.id, encoded.data, JSON.parse(encoded.refs), written!, now);
  }

  async delete(id: string): Promise<boolean> {
    if (!isStorableText(id)) return false;
    return (await this.context.runner.changes(this.context.statements.delete(this.collection, id))) > 0;
  }

  async list(query: ListQuery = {}): Promise<Page<T>> {
    const limit = pageSize(query.limit);
    const after = decodeCursor(query.cursor);
    const refs = Object.entries(query.refs ?? {});
    // No stored label holds what a store cannot keep.
    if (!areStorableRefs(query.refs)) return { items: [], nextCursor: null };
    // One row more than the page tells whether another page follows.
    const rows = await this.context.runner.rows<RecordColumns>(this.context.statements.list(this.collection, refs, after, limit + 1));
    const count = Math.min(rows.length, limit);
    const items: StoredRecord<T>[] = new Array(count);
    for (let i = 0; i < count; i++) items[i] = this.read(rows[i]!);
    const last = rows[count - 1];
    const nextCursor =
      rows.length > limit && last ? encodeCursor({ createdAt: this.context.dialect.readMillis(last.created_at), id: last.id }) : null;
    return { items, nextCursor };
  }

  private async swap(id: string, expectedRevision: number, replacement: Replacement<T>): Promise<StoredRecord<T> | null> {
    if (!isStorableText(id)) return null;
    if (replacement.refs) assertStorableRecord({ id, refs: replacement.refs });
    const data = encodeJson(replacement.data);
    const refs = replacement.refs ? JSON.stringify(replacement.refs) : null;
    const now = this.context.clock.now().getTime();
    const [written] = await this.context.runner.rows<WrittenColumns>(
      this.context.statements.swap(this.collection, id, expectedRevision, data, refs, now),
    );
    // The statement returns the refs it kept or wrote.
    return written ? this.written(id, data, this.context.dialect.readJson(written.refs), written, now) : null;
  }

  private read(row: RecordColumns): StoredRecord<T> {
    const dialect = this.context.dialect;
    return {
      id: row.id,
      data: dialect.readJson(row.data) as T,
      refs: dialect.readJson(row.refs) as Record<string, string>,
      revision: row.revision,
      createdAt: isoFromMillis(dialect.readMillis(row.created_at)),
      updatedAt: isoFromMillis(dialect.readMillis(row.updated_at)),
    };
  }

  /** The record a write stored, rebuilt from the JSON it sent: parsed again, it is a copy as stored. */
  private written(id: string, data: string, refs: unknown, written: WrittenColumns, now: number): StoredRecord<T> {
    return {
      id,
      data: JSON.parse(data) as T,
      refs: refs as Record<string, string>,
      revision: written.revision,
      createdAt: isoFromMillis(this.context.dialect.readMillis(written.created_at)),
      updatedAt: isoFromMillis(now),
    };
  }
}

function encode(data: unknown, refs: Readonly<Record<string, string>>): EncodedRecord {
  return { data: encodeJson(data), refs: JSON.stringify(refs) };
}

/** JSON text of a value; `undefined` (which JSON cannot hold) is stored as null. */
function encodeJson(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}
