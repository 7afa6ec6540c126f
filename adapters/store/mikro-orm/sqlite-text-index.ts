import { createHash } from 'node:crypto';
import { indexableText, searchTerms } from '../../../domain/search/text-query.js';
import type { Passage, PassageFilter, TextHit, TextIndex, TextSearch } from '../../../ports/text-index.js';
import { assertDeleteFilter, assertStorablePassage, filterEntries, hitLimit, matchesFilter, storableText } from '../shared/text-filter.js';
import type { SqlRunner } from './sql-runner.js';
import { putBatches } from '../shared/put-batches.js';

/** Passages per multi-row upsert: 5 bound values each. */
const PUT_CHUNK = 100;

const UPSERT_ROW = '(?, ?, ?, ?, ?)';
const UPSERT_TAIL =
  ' on conflict (`collection`, `id`) do update set `refs` = excluded.`refs`, `text` = excluded.`text`, `keys` = excluded.`keys`';

/** bm25 weighs the words only (the `keys` column is the scope); snippet() reads the `text` column. */
const SEARCH =
  'select p.`id` as id, p.`refs` as refs, bm25(`porter_text_words`, 1.0, 0.0) as score, ' +
  "snippet(`porter_text_words`, 0, char(2), char(3), '…', 16) as snippet " +
  'from `porter_text_words` join `porter_text_passages` p on p.`seq` = `porter_text_words`.`rowid` ' +
  'where `porter_text_words` match ? and p.`collection` = ? order by score, p.`id` limit ?';

const SCOPED =
  'select p.`seq` as seq, p.`refs` as refs from `porter_text_words` join `porter_text_passages` p on p.`seq` = `porter_text_words`.`rowid` ' +
  'where `porter_text_words` match ? and p.`collection` = ?';

/**
 * The text index on SQLite's FTS5 (migration 0002-text-index). A passage's labels become tokens of
 * its `keys` column, each a hash of (collection, label, value), so the scope is matched by FTS5
 * itself together with the words (`keys : k… AND text : ("word"*)`): a search reads only the
 * owner's postings, however many other people's passages there are. Every hit is still checked
 * against the filter exactly. The person's words only ever reach FTS5 as quoted prefix terms made
 * of letters and digits (domain/search/text-query.ts), so no query is FTS5 syntax.
 */
export class SqliteTextIndex implements TextIndex {
  constructor(
    private readonly collection: string,
    private readonly runner: SqlRunner,
  ) {}

  async put(passages: ReadonlyArray<Passage>): Promise<void> {
    for (const passage of passages) assertStorablePassage(passage);
    for (const chunk of putBatches(passages, PUT_CHUNK)) {
      await this.runner.changes({
        sql:
          'insert into `porter_text_passages` (`collection`, `id`, `refs`, `text`, `keys`) values ' +
          chunk.map(() => UPSERT_ROW).join(', ') +
          UPSERT_TAIL,
        params: chunk.flatMap((passage) => [
          this.collection,
          passage.id,
          JSON.stringify(passage.refs),
          storableText(indexableText(passage.text)),
          this.keysOf(passage.refs),
        ]),
      });
    }
  }

  async delete(ids: ReadonlyArray<string>): Promise<number> {
    if (ids.length === 0) return 0;
    return this.runner.changes({
      sql: 'delete from `porter_text_passages` where `collection` = ? and `id` in (select `value` from json_each(?))',
      params: [this.collection, JSON.stringify([...new Set(ids)])],
    });
  }

  async deleteWhere(where: PassageFilter): Promise<number> {
    assertDeleteFilter(where);
    const scope = this.scopeOf(where);
    if (scope === null) return 0;
    const rows = await this.runner.rows<{ seq: number; refs: string }>({ sql: SCOPED, params: [scope, this.collection] });
    const seqs = rows.filter((row) => matchesFilter(JSON.parse(row.refs), where)).map((row) => row.seq);
    if (seqs.length === 0) return 0;
    return this.runner.changes({
      sql: 'delete from `porter_text_passages` where `seq` in (select `value` from json_each(?))',
      params: [JSON.stringify(seqs)],
    });
  }

  async search({ text, where, limit }: TextSearch): Promise<TextHit[]> {
    const most = hitLimit(limit);
    const terms = searchTerms(text);
    const scope = this.scopeOf(where);
    if (terms.length === 0 || scope === null) return [];
    const words = `text : (${terms.map((term) => `"${term}"*`).join(' ')})`;
    const rows = await this.runner.rows<{ id: string; refs: string; score: number; snippet: string }>({
      sql: SEARCH,
      params: [`${scope} AND ${words}`, this.collection, most],
    });
    return rows.flatMap((row) => {
      const refs = JSON.parse(row.refs) as Record<string, string>;
      return matchesFilter(refs, where) ? [{ id: row.id, refs, rank: -row.score, snippet: row.snippet }] : [];
    });
  }

  /** The FTS5 expression every passage in scope matches; null when the filter matches nothing. */
  private scopeOf(where: PassageFilter): string | null {
    const entries = filterEntries(where);
    if (!entries) return null;
    // Each label's token names the collection too, so the collection's own token (on every passage,
    // a long posting list that would slow every search down) is only matched when there is no label.
    const parts = entries.length === 0 ? [`keys : ${this.token([this.collection])}`] : [];
    for (const [name, values] of entries) {
      parts.push(`keys : (${values.map((value) => this.token([this.collection, name, value])).join(' OR ')})`);
    }
    return parts.join(' AND ');
  }

  private keysOf(refs: Readonly<Record<string, string>>): string {
    return [this.token([this.collection]), ...Object.entries(refs).map(([name, value]) => this.token([this.collection, name, value]))].join(
      ' ',
    );
  }

  private token(parts: ReadonlyArray<string>): string {
    return labelToken(parts);
  }
}

/** A bare FTS5 token (letters and digits) standing for one label, `[collection, name, value]`: 128 bits of its SHA-256. */
export function labelToken(parts: ReadonlyArray<string>): string {
  return 'k' + createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32);
}
