import type { PassageFilter } from '../../../ports/text-index.js';
import type { NoVectors, VectorEntry, VectorHit, VectorIndex, VectorIndexes, VectorSearch } from '../../../ports/vector-index.js';
import { assertDeleteFilter, filterEntries, hitLimit, matchesFilter } from '../shared/text-filter.js';
import { assertDimensions, assertEntry, assertVector, vectorText } from '../shared/vector-checks.js';
import type { SqlRunner } from './sql-runner.js';
import { oncePerKey } from './once-per-key.js';
import { putBatches } from '../shared/put-batches.js';

/** Entries per upsert statement (they travel as arrays: one statement, four parameters). */
const PUT_CHUNK = 200;

/** pgvector's HNSW index takes `vector` columns of at most 2,000 dimensions; longer ones are searched exactly. */
const HNSW_MAX_DIMENSIONS = 2_000;

/**
 * A fixed key for pg_advisory_xact_lock ("vector" in ASCII), the same in every instance: `create
 * … if not exists` is not safe against itself (two instances booting together on a fresh database
 * both try to insert the extension or the table, and one fails on a unique catalog index), so the
 * vector DDL runs one instance after another.
 */
const VECTOR_DDL_LOCK_KEY = 0x766563746f72;

/** `statements` as one statement (a `do` block: one implicit transaction) that first takes the vector DDL lock. */
function underDdlLock(statements: string): { sql: string; params: [] } {
  return { sql: `do $$ begin perform pg_advisory_xact_lock(${VECTOR_DDL_LOCK_KEY}); ${statements} end $$`, params: [] };
}

/**
 * pgvector on PostgreSQL, when `create extension if not exists vector` succeeds (the extension is
 * installed on the server and the role may create it, or it exists already); otherwise the reason,
 * and retrieval stays full-text. Written against pgvector's documented SQL: a table per number of
 * dimensions, `porter_vectors_<n>`, its `embedding` a `vector(n)` under an HNSW index with
 * `vector_cosine_ops`, searched by `<=>` (cosine distance). Debian 12 packages no pgvector, so its
 * tests run only where it is built (docs/knowledge.md says when they last did).
 */
export async function pgvectorIndexes(runner: SqlRunner): Promise<VectorIndexes | NoVectors> {
  try {
    await runner.changes(underDdlLock('create extension if not exists vector;'));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      reason: /could not open extension control file|is not available|extension "vector"/i.test(message)
        ? 'pgvector is not installed'
        : `pgvector could not be enabled (${message.slice(0, 200)})`,
    };
  }
  return new PgvectorIndexes(runner);
}

class PgvectorIndexes implements VectorIndexes {
  readonly engine = 'pgvector';
  private readonly tableFor = oncePerKey((dimensions: number) => this.make(dimensions));

  constructor(private readonly runner: SqlRunner) {}

  async index(collection: string, dimensions: number): Promise<VectorIndex> {
    assertDimensions(dimensions);
    await this.tableFor(dimensions);
    return new PgvectorIndex(collection, dimensions, this.runner);
  }

  async deleteWhere(collection: string, where: PassageFilter): Promise<number> {
    assertDeleteFilter(where);
    const filter = sqlFilter(where, 2);
    if (filter === null) return 0;
    const tables = await this.runner.rows<{ name: string }>({
      sql: "select tablename as name from pg_tables where schemaname = current_schema() and tablename ~ '^porter_vectors_[0-9]+$'",
      params: [],
    });
    let removed = 0;
    for (const { name } of tables)
      removed += await this.runner.changes({
        sql: `delete from "${name}" where "collection" = $1${filter.sql}`,
        params: [collection, ...filter.params],
      });
    return removed;
  }

  private async make(dimensions: number): Promise<void> {
    const table = `porter_vectors_${dimensions}`;
    const nearest =
      dimensions <= HNSW_MAX_DIMENSIONS
        ? ` create index if not exists "${table}_nearest" on "${table}" using hnsw ("embedding" vector_cosine_ops);`
        : '';
    await this.runner.changes(
      underDdlLock(
        `create table if not exists "${table}" ("collection" text not null, "id" text not null, "refs" jsonb not null, ` +
          `"embedding" vector(${dimensions}) not null, primary key ("collection", "id"));${nearest}`,
      ),
    );
  }
}

class PgvectorIndex implements VectorIndex {
  private readonly table: string;

  constructor(
    private readonly collection: string,
    private readonly dimensions: number,
    private readonly runner: SqlRunner,
  ) {
    this.table = `porter_vectors_${dimensions}`;
  }

  async put(entries: ReadonlyArray<VectorEntry>): Promise<void> {
    for (const entry of entries) assertEntry(entry, this.dimensions);
    for (const chunk of putBatches(entries, PUT_CHUNK)) {
      await this.runner.changes({
        sql:
          `insert into "${this.table}" ("collection", "id", "refs", "embedding") ` +
          'select $1, u.id, u.refs::jsonb, u.embedding::vector from unnest($2::text[], $3::text[], $4::text[]) as u(id, refs, embedding) ' +
          'on conflict ("collection", "id") do update set "refs" = excluded."refs", "embedding" = excluded."embedding"',
        params: [
          this.collection,
          chunk.map((entry) => entry.id),
          chunk.map((entry) => JSON.stringify(entry.refs)),
          chunk.map((entry) => vectorText(entry.vector)),
        ],
      });
    }
  }

  async search({ vector, where, limit }: VectorSearch): Promise<VectorHit[]> {
    assertVector(vector, this.dimensions);
    const most = hitLimit(limit);
    const filter = sqlFilter(where, 4);
    if (filter === null) return [];
    const select = `select "id" as id, "refs"::text as refs, "embedding" <=> $1::vector as distance from "${this.table}" where "collection" = $2${filter.sql}`;
    const params = [vectorText(vector), this.collection, most, ...filter.params];
    // The HNSW index filters after it searches (pgvector's documented behaviour): too few left, and
    // the exact nearest within the labels are read instead (an order the index cannot serve).
    let rows = await this.runner.rows<{ id: string; refs: string; distance: number }>({
      sql: `${select} order by "embedding" <=> $1::vector limit $3`,
      params,
    });
    if (rows.length < most)
      rows = await this.runner.rows<{ id: string; refs: string; distance: number }>({
        sql: `${select} order by ("embedding" <=> $1::vector) + 0, "id" limit $3`,
        params,
      });
    return rows.flatMap((row) => {
      const refs = JSON.parse(row.refs) as Record<string, string>;
      return matchesFilter(refs, where) ? [{ id: row.id, refs, distance: Number(row.distance) }] : [];
    });
  }
}

/** ` and refs->>'name' = any($n::text[])` per label, numbered from `first`; null when a label lists none. */
function sqlFilter(where: PassageFilter, first: number): { sql: string; params: unknown[] } | null {
  const entries = filterEntries(where);
  if (!entries) return null;
  return {
    sql: entries.map((_, n) => ` and "refs"->>$${first + 2 * n} = any($${first + 2 * n + 1}::text[])`).join(''),
    params: entries.flatMap(([name, values]) => [name, values]),
  };
}
