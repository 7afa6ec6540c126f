import { indexableText, indexedWords, searchTerms, snippetOf } from '../../../domain/search/text-query.js';
import type { Passage, PassageFilter, TextHit, TextIndex, TextSearch } from '../../../ports/text-index.js';
import { assertDeleteFilter, assertStorablePassage, filterEntries, hitLimit, storableText } from '../shared/text-filter.js';
import type { SqlRunner } from './sql-runner.js';
import { putBatches } from '../shared/put-batches.js';

/**
 * How many matches a search ranks at most. Enough to rank every match of a rare word (and of most
 * searches); a word in most passages is ranked among this many of them, not all.
 */
const RANK_CANDIDATES = 500;

/**
 * Passages this process wrote to the table, by connection pool, and the count at which its
 * statistics are next refreshed. Without them a search right after a bulk load (a host adding its
 * documents, then asking) is planned as if the table were small: 98.7 ms p50 over 106,640 passages
 * in `npm run bench -- retrieval`, 17.8 ms once analyzed. Refreshed at 1,000 passages, then each time the count doubles;
 * autovacuum keeps them current after that.
 */
const written = new WeakMap<SqlRunner, { count: number; analyzeAt: number }>();
const FIRST_ANALYZE = 1_000;

/** Passages per upsert statement (they travel as arrays: one statement, four parameters). */
const PUT_CHUNK = 500;

/**
 * PostgreSQL keeps at most 1 MB of lexemes and positions per tsvector and refuses more: the words
 * past this many characters are stored (and shown) but not searched.
 */
const MAX_INDEXED_CHARS = 200_000;

const UPSERT =
  'insert into "porter_text_passages" ("collection", "id", "refs", "text", "terms") ' +
  "select $1, u.id, u.refs::jsonb, u.text, to_tsvector('simple', u.words) " +
  'from unnest($2::text[], $3::text[], $4::text[], $5::text[]) as u(id, refs, text, words) ' +
  'on conflict ("collection", "id") do update set "refs" = excluded."refs", "text" = excluded."text", "terms" = excluded."terms"';

/**
 * The text index on PostgreSQL (migration 0003-text-index): `terms` is a tsvector of the passage's
 * words folded in TypeScript (case and accents, as domain/search/text-query.ts folds a query: no
 * `unaccent` extension needed), searched with a GIN index and ranked by ts_rank. The query is built
 * from those folded words only, each a quoted prefix lexeme (`'word':*`), never the person's text,
 * so no input is tsquery syntax (websearch_to_tsquery would read `-`, `or` and quotes as operators,
 * and would not match prefixes while someone types). Snippets are cut from the stored text by the
 * same code as the memory index, so a match is marked the same on every engine. Labels are jsonb:
 * single values by containment (`refs @> $`), lists with `= any($)`, all bound parameters.
 */
export class PostgresqlTextIndex implements TextIndex {
  constructor(
    private readonly collection: string,
    private readonly runner: SqlRunner,
  ) {}

  async put(passages: ReadonlyArray<Passage>): Promise<void> {
    for (const passage of passages) assertStorablePassage(passage);
    for (const chunk of putBatches(passages, PUT_CHUNK)) {
      const texts = chunk.map((passage) => storableText(indexableText(passage.text)));
      await this.runner.changes({
        sql: UPSERT,
        params: [
          this.collection,
          chunk.map((passage) => passage.id),
          chunk.map((passage) => JSON.stringify(passage.refs)),
          texts,
          texts.map((text) => indexedWords(text.slice(0, MAX_INDEXED_CHARS))),
        ],
      });
    }
    await this.analyzedAfter(passages.length);
  }

  /** Refreshes the table's statistics once enough was written since they were last taken (see `written`). */
  private async analyzedAfter(count: number): Promise<void> {
    const tally = written.get(this.runner) ?? { count: 0, analyzeAt: FIRST_ANALYZE };
    written.set(this.runner, tally);
    tally.count += count;
    if (tally.count < tally.analyzeAt) return;
    tally.analyzeAt = tally.count * 2;
    // Statistics only: a failure (another instance analyzing, a lock timeout) leaves the plan as it was.
    await this.runner.changes({ sql: 'analyze "porter_text_passages"', params: [] }).catch(() => undefined);
  }

  async delete(ids: ReadonlyArray<string>): Promise<number> {
    if (ids.length === 0) return 0;
    return this.runner.changes({
      sql: 'delete from "porter_text_passages" where "collection" = $1 and "id" = any($2::text[])',
      params: [this.collection, [...new Set(ids)]],
    });
  }

  async deleteWhere(where: PassageFilter): Promise<number> {
    assertDeleteFilter(where);
    const scope = this.scopeOf(where, 2);
    if (!scope) return 0;
    return this.runner.changes({
      sql: `delete from "porter_text_passages" where "collection" = $1 and ${scope.sql}`,
      params: [this.collection, ...scope.params],
    });
  }

  async search({ text, where, limit }: TextSearch): Promise<TextHit[]> {
    const most = hitLimit(limit);
    const terms = searchTerms(text);
    const scope = this.scopeOf(where, 4);
    if (terms.length === 0 || !scope) return [];
    // Ranked among the first RANK_CANDIDATES matches: ts_rank reads each match's whole tsvector, and
    // a common word's prefix matches nearly every passage (335 ms over 100,000 passages, unbounded).
    const rows = await this.runner.rows<{ id: string; refs: Record<string, string>; text: string; rank: number }>({
      sql:
        'select "id", "refs", "text", ts_rank("terms", q) as rank from (' +
        'select "id", "refs", "text", "terms", q ' +
        `from "porter_text_passages", to_tsquery('simple', $1) q ` +
        `where "collection" = $2 and "terms" @@ q and ${scope.sql} limit ${RANK_CANDIDATES}` +
        ') as candidates order by rank desc, "id" limit $3',
      params: [terms.map((term) => `'${term}':*`).join(' & '), this.collection, most, ...scope.params],
    });
    return rows.map((row) => ({ id: row.id, refs: row.refs, rank: Number(row.rank), snippet: snippetOf(row.text, terms) }));
  }

  /** The filter as SQL over numbered parameters from `first`; null when it matches nothing. */
  private scopeOf(where: PassageFilter, first: number): { sql: string; params: unknown[] } | null {
    const entries = filterEntries(where);
    if (!entries) return null;
    const single = Object.fromEntries(entries.filter(([, values]) => values.length === 1).map(([name, [value]]) => [name, value]));
    const clauses = [`"refs" @> $${first}::jsonb`];
    const params: unknown[] = [JSON.stringify(single)];
    for (const [name, values] of entries.filter(([, list]) => list.length > 1)) {
      clauses.push(`"refs" ->> $${first + params.length} = any($${first + params.length + 1}::text[])`);
      params.push(name, values);
    }
    return { sql: clauses.join(' and '), params };
  }
}
