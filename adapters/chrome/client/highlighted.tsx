import type { ReactNode } from 'react';

/** A stretch of text to highlight: UTF-16 offsets, end exclusive (the wire's ThreadMatch.highlights). */
export interface Highlight {
  readonly start: number;
  readonly end: number;
}

/**
 * Text with some stretches in `<mark>`: React escapes every piece, so nothing in the text (the
 * person's own words) is ever read as markup. Ranges out of order, overlapping or out of the text
 * are skipped.
 */
export function Highlighted({ text, highlights }: { text: string; highlights: ReadonlyArray<Highlight> }) {
  const pieces: ReactNode[] = [];
  let at = 0;
  for (const { start, end } of [...highlights].sort((a, b) => a.start - b.start)) {
    if (start < at || end <= start || end > text.length) continue;
    if (start > at) pieces.push(text.slice(at, start));
    pieces.push(<mark key={start}>{text.slice(start, end)}</mark>);
    at = end;
  }
  if (at < text.length) pieces.push(text.slice(at));
  return <>{pieces}</>;
}
