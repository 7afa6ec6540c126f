/**
 * How a document is cut into passages for retrieval: stretches of about `size` characters, each
 * starting `overlap` characters or so before the previous one ended (so a sentence cut at a
 * boundary is whole in one of the two), ending where the text pauses (a blank line, then the end of
 * a sentence, then a space) rather than mid-word. Offsets are UTF-16 indexes into the document's
 * text, end exclusive, so a citation can point at exactly what was retrieved.
 */

export interface Span {
  readonly start: number;
  readonly end: number;
}

export interface ChunkSize {
  /** The most characters a passage holds. */
  readonly size: number;
  /** About how many characters a passage repeats of the one before it; less than half of `size`. */
  readonly overlap: number;
}

/** About three paragraphs of prose: long enough to answer from, short enough to rank and cite. */
export const DEFAULT_CHUNK: ChunkSize = { size: 1200, overlap: 200 };

/** The passages of `text`, in order; none for a text without words. */
export function chunkText(text: string, { size, overlap }: ChunkSize = DEFAULT_CHUNK): Span[] {
  if (size < 2 || overlap < 0 || overlap * 2 >= size)
    throw new RangeError('A chunk size needs 2+ characters and an overlap under half of it');
  const spans: Span[] = [];
  let start = skipSpace(text, 0);
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    if (end < text.length) end = notMidCharacter(text, pauseBefore(text, start + Math.floor(size / 2), end));
    const trimmed = trimEnd(text, start, end);
    if (trimmed > start) spans.push({ start, end: trimmed });
    if (end >= text.length) break;
    // The next passage starts a little before this one ended, at the start of a word.
    const next = wordStartAfter(text, Math.max(start + 1, end - overlap), end);
    start = skipSpace(text, next);
  }
  return spans;
}

/** The last good place to end a passage in (from, to]: a paragraph break, a sentence's end, a space; else `to`. */
function pauseBefore(text: string, from: number, to: number): number {
  const window = text.slice(from, to);
  for (const pause of [/\n\s*\n/g, /[.!?。](?=\s)/g, /\s/g]) {
    let last = -1;
    for (const match of window.matchAll(pause)) last = match.index + match[0].length;
    if (last > 0) return from + last;
  }
  return to;
}

/** The first word start at or after `from` (and before `limit`); `from` when it already is one. */
function wordStartAfter(text: string, from: number, limit: number): number {
  if (from === 0 || /\s/.test(text[from - 1]!)) return from;
  for (let at = from; at < limit; at++) if (/\s/.test(text[at]!)) return at + 1;
  return from;
}

/** Never between the two halves of a surrogate pair (an emoji is cut whole or not at all). */
function notMidCharacter(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff && at > 0 ? at - 1 : at;
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && /\s/.test(text[at]!)) at++;
  return at;
}

function trimEnd(text: string, start: number, end: number): number {
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return end;
}
