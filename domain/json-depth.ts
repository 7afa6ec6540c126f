import { InvalidInput } from './errors.js';

/**
 * How deeply JSON from outside may nest (objects and arrays, the outermost counting as 1). Deeper
 * than any document Porter reads needs, and shallow enough that every recursive step after the
 * parse (validation, copying, serializing) stays far from the stack's end.
 */
export const JSON_DEPTH_LIMIT = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * The deepest nesting in JSON text (a string, or its UTF-8 bytes: the brackets and quotes are
 * ASCII either way), read in one pass without recursion: brackets and braces outside strings open
 * and close a level. Text that is not JSON gets some number; the parser refuses it afterwards.
 * Stops counting past `stopAt`.
 */
export function jsonDepth(text: string | Uint8Array, stopAt = Number.POSITIVE_INFINITY): number {
  const codeAt = typeof text === 'string' ? (i: number) => text.charCodeAt(i) : (i: number) => text[i]!;
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = codeAt(i);
    if (inString) {
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth += 1;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > stopAt) return deepest;
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth -= 1;
    }
  }
  return deepest;
}

/** Refuses JSON text nested deeper than `JSON_DEPTH_LIMIT` (`InvalidInput`), before it is parsed. */
export function assertJsonDepth(text: string | Uint8Array, what = 'The JSON body'): void {
  // No level opens without a bracket or brace: text with no more of them than the limit (most
  // bodies) cannot nest past it, and counting them is a native search, not a walk of every byte.
  if (opensAtMost(text, JSON_DEPTH_LIMIT)) return;
  if (jsonDepth(text, JSON_DEPTH_LIMIT) > JSON_DEPTH_LIMIT) {
    throw new InvalidInput(`${what} nests deeper than ${JSON_DEPTH_LIMIT} levels`, [
      { path: '', message: `nested deeper than ${JSON_DEPTH_LIMIT} levels` },
    ]);
  }
}

/** Whether `text` holds at most `limit` opening brackets and braces, strings included (an upper bound on its depth). */
function opensAtMost(text: string | Uint8Array, limit: number): boolean {
  let opens = 0;
  if (typeof text === 'string') {
    for (const mark of ['{', '['])
      for (let at = text.indexOf(mark); at !== -1; at = text.indexOf(mark, at + 1)) if (++opens > limit) return false;
  } else {
    for (const mark of [OPEN_BRACE, OPEN_BRACKET])
      for (let at = text.indexOf(mark); at !== -1; at = text.indexOf(mark, at + 1)) if (++opens > limit) return false;
  }
  return true;
}
