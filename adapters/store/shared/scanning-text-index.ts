import { indexableText, matchesTerm, searchTerms, snippetOf, wordsOf } from '../../../domain/search/text-query.js';
import { everyRecord, type RecordSet } from '../../../ports/store.js';
import type { Passage, PassageFilter, TextHit, TextIndex, TextSearch } from '../../../ports/text-index.js';
import { assertDeleteFilter, assertStorablePassage, filterEntries, hitLimit, matchesFilter, storableText } from './text-filter.js';

/** A passage as a record: its text as data, its labels as the record's refs. */
interface PassageData {
  readonly text: string;
}

/**
 * A TextIndex that keeps passages as records of a RecordSet and reads every candidate to search:
 * the memory store's (for tests and development), and the fallback on a host's own Store, which
 * has no word index. Candidates are narrowed by the filter's single-valued labels through the
 * record set's own ref lookup; a search reads them all, so it suits thousands of passages per
 * scope, not millions.
 */
export class ScanningTextIndex implements TextIndex {
  constructor(private readonly passages: RecordSet<PassageData>) {}

  async put(passages: ReadonlyArray<Passage>): Promise<void> {
    for (const passage of passages) assertStorablePassage(passage);
    for (const passage of passages) {
      await this.passages.put({ id: passage.id, data: { text: storableText(indexableText(passage.text)) }, refs: { ...passage.refs } });
    }
  }

  async delete(ids: ReadonlyArray<string>): Promise<number> {
    let removed = 0;
    for (const id of new Set(ids)) if (await this.passages.delete(id)) removed++;
    return removed;
  }

  async deleteWhere(where: PassageFilter): Promise<number> {
    assertDeleteFilter(where);
    return this.delete((await this.candidates(where)).map((record) => record.id));
  }

  async search({ text, where, limit }: TextSearch): Promise<TextHit[]> {
    const most = hitLimit(limit);
    const terms = searchTerms(text);
    if (terms.length === 0) return [];
    const hits: TextHit[] = [];
    for (const record of await this.candidates(where)) {
      const words = wordsOf(record.data.text);
      const counts = terms.map((term) => words.filter((word) => matchesTerm(word.word, [term])).length);
      if (counts.some((count) => count === 0)) continue;
      // Matches per word, summed over the terms: a short passage full of the words ranks first.
      const rank = counts.reduce((sum, count) => sum + count, 0) / (1 + Math.log(1 + words.length));
      hits.push({ id: record.id, refs: record.refs, rank, snippet: snippetOf(record.data.text, terms) });
    }
    return hits.sort((a, b) => b.rank - a.rank || (a.id < b.id ? -1 : 1)).slice(0, most);
  }

  /** The records the filter allows: listed by its single-valued labels, checked against all of it. */
  private async candidates(where: PassageFilter) {
    const entries = filterEntries(where);
    if (!entries) return [];
    const exact = Object.fromEntries(entries.filter(([, values]) => values.length === 1).map(([name, [value]]) => [name, value!]));
    return (await everyRecord(this.passages, exact)).filter((record) => matchesFilter(record.refs, where));
  }
}
