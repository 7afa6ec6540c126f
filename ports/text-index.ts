/**
 * The TextIndex port: named collections of passages searched by their words, ranked. Thread search
 * indexes message text through it; memory and knowledge retrieval share it. Adapters: the memory
 * store (a scan), SQLite (FTS5, bm25) and PostgreSQL (tsvector, GIN, ts_rank); one conformance
 * suite (test/adapters/store/text-index-conformance.ts) proves them alike.
 *
 * What a query means is domain/search/text-query.ts: its words, folded, each the start of a word of
 * the passage (all of them must match); never query syntax.
 */

/** A stretch of text to find, with exact-match labels to scope a search by (owner, thread…). */
export interface Passage {
  /** Unique within the collection; a put with the same id replaces the passage. */
  readonly id: string;
  readonly refs: Readonly<Record<string, string>>;
  readonly text: string;
}

/** Labels a passage must carry: one value, or any of several. Values are compared exactly, as bound parameters. */
export type PassageFilter = Readonly<Record<string, string | ReadonlyArray<string>>>;

export interface TextSearch {
  /** The person's words, as typed: never interpreted as query syntax. */
  readonly text: string;
  /** Every label given must match; `{}` searches the whole collection. */
  readonly where: PassageFilter;
  /** Most hits answered, 1..500; default 20. */
  readonly limit?: number;
}

export interface TextHit {
  readonly id: string;
  readonly refs: Readonly<Record<string, string>>;
  /** Higher is better; comparable only within one search's hits. */
  readonly rank: number;
  /**
   * A stretch of the passage around the match, each matched word between MATCH_START (U+0002) and
   * MATCH_END (U+0003) of domain/search/text-query.ts. The passage's own text never holds either
   * (they are stored as spaces), so `highlightsOf` can always tell them apart from text.
   */
  readonly snippet: string;
}

export const DEFAULT_TEXT_HITS = 20;
export const MAX_TEXT_HITS = 500;

export interface TextIndex {
  /** Inserts or replaces each passage (by id). */
  put(passages: ReadonlyArray<Passage>): Promise<void>;
  /** Removes the passages with these ids; answers how many there were. */
  delete(ids: ReadonlyArray<string>): Promise<number>;
  /** Removes every passage carrying all these labels (a thread's, say); refuses an empty filter. */
  deleteWhere(where: PassageFilter): Promise<number>;
  /** The best-ranked passages holding every word of the query, best first; none for a query without words. */
  search(query: TextSearch): Promise<TextHit[]>;
}
