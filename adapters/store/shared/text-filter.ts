import { InvalidInput } from '../../../domain/errors.js';
import { DEFAULT_TEXT_HITS, MAX_TEXT_HITS, type PassageFilter } from '../../../ports/text-index.js';
import { isStorableText, UnstorableText } from './storable-text.js';

/** True when the refs carry every label of the filter (one of its values where it lists several). */
export function matchesFilter(refs: Readonly<Record<string, string>>, where: PassageFilter): boolean {
  return Object.entries(where).every(([name, wanted]) => {
    const value = Object.hasOwn(refs, name) ? refs[name] : undefined;
    return value !== undefined && (typeof wanted === 'string' ? value === wanted : wanted.includes(value));
  });
}

/** The filter as lists of values; a label whose list is empty matches nothing (null). */
export function filterEntries(where: PassageFilter): Array<[string, string[]]> | null {
  const entries = Object.entries(where).map(([name, wanted]): [string, string[]] => [
    name,
    typeof wanted === 'string' ? [wanted] : [...new Set(wanted)],
  ]);
  return entries.some(([, values]) => values.length === 0) ? null : entries;
}

/** A hit limit within 1..MAX_TEXT_HITS. */
export function hitLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_TEXT_HITS;
  if (!Number.isInteger(limit) || limit < 1) throw new InvalidInput('A search limit is a whole number from 1');
  return Math.min(limit, MAX_TEXT_HITS);
}

/** deleteWhere never empties a collection by accident. */
export function assertDeleteFilter(where: PassageFilter): void {
  if (Object.keys(where).length === 0) throw new InvalidInput('Deleting passages needs at least one label to match');
}

/** Refuses a passage whose id or labels a database could not keep exactly. */
export function assertStorablePassage(passage: { id: string; refs: Readonly<Record<string, string>>; text: string }): void {
  if (!isStorableText(passage.id)) throw new UnstorableText('passage id');
  for (const [name, value] of Object.entries(passage.refs)) {
    if (!isStorableText(name) || !isStorableText(value)) throw new UnstorableText("passage's labels");
  }
}

/** Text a database keeps: NULs and lone surrogates become spaces and U+FFFD (text is searched, not an id). */
export function storableText(text: string): string {
  // eslint-disable-next-line no-control-regex -- NUL is exactly what is replaced
  return text.replace(/\u0000/g, ' ').replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}
