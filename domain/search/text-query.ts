/**
 * What full-text search treats as a word, and how a snippet marks what matched: one rule for every
 * text index (memory, SQLite FTS5, PostgreSQL tsvector), so a query finds the same passages on each.
 *
 * A query is never syntax: it is cut into words (runs of letters and digits, case and accents
 * folded), and a passage matches when each word begins one of its words. Quotes, `*`, `-`, `OR`,
 * `NEAR(` are punctuation or plain words here, never operators.
 */

/** Opens a matched word inside a snippet (U+0002, which indexed text never holds). */
export const MATCH_START = '\u0002';
/** Closes a matched word inside a snippet (U+0003). */
export const MATCH_END = '\u0003';

/** At most this many words of a query are searched for; the rest are ignored. */
export const MAX_QUERY_TERMS = 16;
/** A query word longer than this is cut to it (a prefix still finds the word). */
export const MAX_TERM_LENGTH = 64;
/** How many words a snippet shows around its match. */
export const SNIPPET_WORDS = 16;

const WORD = /[\p{L}\p{N}]+/gu;

/** Lower case, accents dropped: how indexed words and query words are compared. */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The words a query searches for, folded, deduplicated, in order; none for a query of punctuation. */
export function searchTerms(query: string): string[] {
  const terms: string[] = [];
  for (const [word] of foldText(query).matchAll(WORD)) {
    const term = word.slice(0, MAX_TERM_LENGTH);
    // A word that another already covers as a prefix adds nothing to an all-words match.
    if (terms.some((kept) => term.startsWith(kept))) continue;
    for (let i = terms.length - 1; i >= 0; i--) if (terms[i]!.startsWith(term)) terms.splice(i, 1);
    terms.push(term);
    if (terms.length === MAX_QUERY_TERMS) break;
  }
  return terms;
}

/** Text as an index keeps it: the snippet markers cannot appear in it (they become spaces). */
export function indexableText(text: string): string {
  // eslint-disable-next-line no-control-regex -- the markers are exactly what is replaced
  return text.replace(/[\u0002\u0003]/g, ' ');
}

/** The folded words of a text, space-separated: what a word index is built from. */
export function indexedWords(text: string): string {
  return Array.from(foldText(text).matchAll(WORD), ([word]) => word).join(' ');
}

export interface WordAt {
  readonly word: string;
  readonly start: number;
  readonly end: number;
}

/** The text's words with their places (UTF-16 offsets into the original text). */
export function wordsOf(text: string): WordAt[] {
  const words: WordAt[] = [];
  for (const match of text.matchAll(WORD)) {
    words.push({ word: foldText(match[0]), start: match.index, end: match.index + match[0].length });
  }
  return words;
}

/** True when the folded word begins with one of the terms. */
export function matchesTerm(word: string, terms: ReadonlyArray<string>): boolean {
  return terms.some((term) => word.startsWith(term));
}

/**
 * About SNIPPET_WORDS words of `text` around the stretch with the most matched words, each matched
 * word between MATCH_START and MATCH_END, with `…` where the text goes on.
 */
export function snippetOf(text: string, terms: ReadonlyArray<string>, size = SNIPPET_WORDS): string {
  const words = wordsOf(text);
  if (words.length === 0) return text.slice(0, 200);
  const hit = words.map((word) => matchesTerm(word.word, terms));
  let best = 0;
  let bestCount = -1;
  for (let from = 0; from < Math.max(1, words.length - size + 1); from++) {
    let count = 0;
    for (let i = from; i < Math.min(words.length, from + size); i++) if (hit[i]) count++;
    if (count > bestCount) [best, bestCount] = [from, count];
  }
  // Start a word or two before the first match, so it has some context.
  const firstHit = hit.indexOf(true, best);
  if (firstHit >= 0 && firstHit - best < 2) best = Math.max(0, firstHit - 2);
  const last = Math.min(words.length, best + size) - 1;
  let out = best > 0 ? '…' : '';
  let at = best > 0 ? words[best]!.start : 0;
  for (let i = best; i <= last; i++) {
    const word = words[i]!;
    out += text.slice(at, word.start);
    out += hit[i] ? MATCH_START + text.slice(word.start, word.end) + MATCH_END : text.slice(word.start, word.end);
    at = word.end;
  }
  return last < words.length - 1 ? out + '…' : out + text.slice(at);
}

/** A highlighted stretch of a snippet's text: UTF-16 offsets, end exclusive. */
export interface Highlight {
  readonly start: number;
  readonly end: number;
}

/**
 * A snippet as plain text and the stretches to highlight: the markers taken out, so the text can be
 * shown as text (escaped like any other) and the ranges wrapped in `<mark>` by whoever shows it.
 */
export function highlightsOf(snippet: string): { text: string; highlights: Highlight[] } {
  const highlights: Highlight[] = [];
  let text = '';
  let open: number | null = null;
  for (const char of snippet) {
    if (char === MATCH_START) {
      open ??= text.length;
    } else if (char === MATCH_END) {
      if (open !== null && text.length > open) highlights.push({ start: open, end: text.length });
      open = null;
    } else {
      text += char;
    }
  }
  if (open !== null && text.length > open) highlights.push({ start: open, end: text.length });
  return { text, highlights };
}
