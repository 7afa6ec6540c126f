/** The longest title Porter gives a thread itself (a person's own may be longer: MAX_TITLE). */
export const GENERATED_TITLE_LENGTH = 60;

/**
 * What a model is told when asked to name a conversation. The offline scripted model recognises it
 * and answers a deterministic title, so it lives here where both sides can read it.
 */
export const TITLE_INSTRUCTIONS =
  'Name this conversation in at most six words. Answer with the name only: no quotes, no Markdown, no final punctuation.';

/** How much of the person's message and of the answer the title prompt carries. */
const PROMPT_PART_CHARS = 1_000;

/** The title prompt's one user message: the start of the person's message and of the answer. */
export function titlePrompt(question: string, answer: string): string {
  return `Person: ${question.slice(0, PROMPT_PART_CHARS)}\n\nAssistant: ${answer.slice(0, PROMPT_PART_CHARS)}`;
}

/** The person's words back out of a title prompt (the scripted model titles from them). */
export function questionOfTitlePrompt(prompt: string): string {
  const match = /^Person: ([\s\S]*?)\n\nAssistant: /.exec(prompt);
  return match ? match[1]! : prompt;
}

/**
 * Text fit to be a title: a leading slash-command (and the numbers after it, as in `/slow 24`),
 * Markdown marks, links' addresses and surrounding quotes removed, whitespace folded, and cut on
 * a word boundary to `max` characters. Empty when nothing is left.
 */
export function plainTitle(text: string, max = GENERATED_TITLE_LENGTH): string {
  const plain = text
    .replace(/^\s*\/[A-Za-z][\w-]*(?:\s+\d+(?:\.\d+)?)*/, '')
    .replace(/```[^\n]*\n?/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<\/?[A-Za-z][^>]*>/g, ' ')
    .replace(/^\s*(?:#{1,6}|>+|[-*+]\s+\[[ xX]\]|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/(\*\*|__|~~|\*|`)/g, '')
    .replace(/\s*\|\s*/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^["'“‘«]+|["'”’»]+$/g, '')
    .replace(/^(?:title|name)\s*:\s*/i, '')
    .replace(/[.:;,]+$/, '')
    .trim();
  return cut(plain, max);
}

/** At most `max` characters, cut at the last word boundary that fits, with an ellipsis. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = text.slice(0, max - 1);
  const space = room.lastIndexOf(' ');
  return `${(space > max / 2 ? room.slice(0, space) : room).trimEnd()}…`;
}
