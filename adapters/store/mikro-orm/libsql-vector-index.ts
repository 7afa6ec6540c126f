import type { PassageFilter } from '../../../ports/text-index.js';
import type { VectorEntry, VectorHit, VectorIndex, VectorIndexes, VectorSearch } from '../../../ports/vector-index.js';
import { assertDeleteFilter, filterEntries, hitLimit, matchesFilter } from '../shared/text-filter.js';
import { assertDimensions, assertEntry, assertVector, vectorText } from '../shared/vector-checks.js';
import type { SqlRunner } from './sql-runner.js';
import { oncePerKey } from './once-per-key.js';
import { putBatches } from '../shared/put-batches.js';

/** Entries per multi-row upsert: 4 bound values each. */
const PUT_CHUNK = 50;

/** Candidates asked of the approximate index per hit wanted (scoped out ones are dropped after). */
const OVERFETCH = 10;
const MIN_CANDIDATES = 100;

/**
 * libsql's own vectors on SQLite: a table per number of dimensions, `porter_vectors_<n>`, its
 * `embedding` an `F32_BLOB(n)` under a `libsql_vector_idx` (DiskANN, cosine), made the first time
 * an embedding of that length is stored (an embedding model fixes it; no migration can know it).
 * A search asks the index (`vector_top_k`) for more candidates than wanted and keeps those whose
 * labels match; when fewer than wanted are left (a caller whose documents are a small part of
 * the collection), it reads the exact nearest among the rows that match the labels instead, so a
 * scope never hides what is within it. Labels are matched exactly, in SQL and again in code.
 */
export class LibsqlVectorIndexes implements VectorIndexes {
  readonly engine = 'libsql vector index';
  private readonly tableFor = oncePerKey((dimensions: number) => this.make(dimensions));

  constructor(private readonly runner: SqlRunner) {}

  async index(collection: string, dimensions: number): Promise<VectorIndex> {
    assertDimensions(dimensions);
    await this.tableFor(dimensions);
    return new LibsqlVectorIndex(collection, dimensions, this.runner);
  }

  async deleteWhere(collection: string, where: PassageFilter): Promise<number> {
    assertDeleteFilter(where);
    const filter = sqlFilter(where);
    if (filter === null) return 0;
    const tables = await this.runner.rows<{ name: string }>({
      sql: "select `name` from `sqlite_master` where `type` = 'table' and `name` glob 'porter_vectors_[0-9]*'",
      params: [],
    });
    let removed = 0;
    for (const { name } of tables) {
      if (!/^porter_vectors_\d+$/.test(name)) continue;
      removed += await this.runner.changes({
        sql: `delete from \`${name}\` where \`collection\` = ?${filter.sql}`,
        params: [collection, ...filter.params],
      });
    }
    return removed;
  }

  private async make(dimensions: number): Promise<void> {
    const table = tableOf(dimensions);
    await this.runner.changes({
      sql:
        `create table if not exists \`${table}\` (\`seq\` integer primary key, \`collection\` text not null, \`id\` text not null, ` +
        `\`refs\` text not null, \`embedding\` F32_BLOB(${dimensions}) not null, unique (\`collection\`, \`id\`))`,
      params: [],
    });
    await this.runner.changes({
      sql: `create index if not exists \`${table}_nearest\` on \`${table}\` (libsql_vector_idx(\`embedding\`, 'metric=cosine'))`,
      params: [],
    });
  }
}

function tableOf(dimensions: number): string {
  return `porter_vectors_${dimensions}`;
}

class LibsqlVectorIndex implements VectorIndex {
  private readonly table: string;

  constructor(
    private readonly collection: string,
    private readonly dimensions: number,
    private readonly runner: SqlRunner,
  ) {
    this.table = tableOf(dimensions);
  }

  async put(entries: ReadonlyArray<VectorEntry>): Promise<void> {
    for (const entry of entries) assertEntry(entry, this.dimensions);
    for (const chunk of putBatches(entries, PUT_CHUNK)) {
      await this.runner.changes({
        sql:
          `insert into \`${this.table}\` (\`collection\`, \`id\`, \`refs\`, \`embedding\`) values ` +
          chunk.map(() => '(?, ?, ?, vector32(?))').join(', ') +
          ' on conflict (`collection`, `id`) do update set `refs` = excluded.`refs`, `embedding` = excluded.`embedding`',
        params: chunk.flatMap((entry) => [this.collection, entry.id, JSON.stringify(entry.refs), vectorText(entry.vector)]),
      });
    }
  }

  async search({ vector, where, limit }: VectorSearch): Promise<VectorHit[]> {
    assertVector(vector, this.dimensions);
    const most = hitLimit(limit);
    const filter = sqlFilter(where);
    if (filter === null) return [];
    const query = vectorText(vector);
    const candidates = Math.max(MIN_CANDIDATES, most * OVERFETCH);
    const near = await this.runner.rows<{ id: string; refs: string; distance: number }>({
      sql:
        `select t.\`id\` as id, t.\`refs\` as refs, vector_distance_cos(t.\`embedding\`, vector32(?)) as distance ` +
        `from vector_top_k('${this.table}_nearest', vector32(?), ?) as v join \`${this.table}\` t on t.\`rowid\` = v.\`id\` ` +
        `where t.\`collection\` = ?${filter.sql.replaceAll('`refs`', 't.`refs`')}`,
      params: [query, query, candidates, this.collection, ...filter.params],
    });
    let hits = this.kept(near, where);
    if (hits.length < most) {
      // Too few of the approximate candidates were the caller's: the exact nearest within the labels.
      const exact = await this.runner.rows<{ id: string; refs: string; distance: number }>({
        sql:
          `select \`id\` as id, \`refs\` as refs, vector_distance_cos(\`embedding\`, vector32(?)) as distance from \`${this.table}\` ` +
          `where \`collection\` = ?${filter.sql} order by distance, \`id\` limit ?`,
        params: [query, this.collection, ...filter.params, most],
      });
      hits = this.kept(exact, where);
    }
    return hits.sort((a, b) => a.distance - b.distance || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(0, most);
  }

  private kept(rows: ReadonlyArray<{ id: string; refs: string; distance: number }>, where: PassageFilter): VectorHit[] {
    return rows.flatMap((row) => {
      const refs = JSON.parse(row.refs) as Record<string, string>;
      return matchesFilter(refs, where) ? [{ id: row.id, refs, distance: Number(row.distance) }] : [];
    });
  }
}

/** ` and json_extract(refs, '$."name"') in (…)` per label, its values bound; null when a label lists none. */
function sqlFilter(where: PassageFilter): { sql: string; params: unknown[] } | null {
  const entries = filterEntries(where);
  if (!entries) return null;
  return {
    sql: entries.map(() => ' and json_extract(`refs`, ?) in (select `value` from json_each(?))').join(''),
    params: entries.flatMap(([name, values]) => [`$.${JSON.stringify(name)}`, JSON.stringify(values)]),
  };
}
