import { Parser } from 'htmlparser2';
import { InvalidInput } from '../../domain/errors.js';
import type { TextExtractor } from '../../ports/file-contents.js';

/** Elements whose content is never text a reader sees. */
const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'math', 'iframe', 'object']);

/** Elements that start a new line of text (so their words do not run together). */
const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'td',
  'th',
  'tr',
  'ul',
]);

/** Elements after which a paragraph ends (a blank line, where passages prefer to be cut). */
const PARAGRAPH = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'table', 'ul', 'ol', 'section', 'article']);

/**
 * An HTML page's readable text, by htmlparser2 (a streaming, forgiving parser: broken markup is
 * read as browsers would, never refused): scripts, styles and other hidden content dropped,
 * entities decoded, block elements on lines of their own and paragraphs apart. Markup is never
 * kept, so nothing of the page runs anywhere the text is shown.
 */
export class HtmlTextExtractor implements TextExtractor {
  readonly reads = ['text/html'];

  async extract(bytes: Uint8Array, mediaType: string): Promise<string> {
    if (mediaType !== 'text/html') throw new InvalidInput(`Text cannot be extracted from ${mediaType}`);
    return htmlText(new TextDecoder('utf-8').decode(bytes));
  }
}

export function htmlText(html: string): string {
  let out = '';
  let hidden = 0;
  let pre = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (HIDDEN.has(name)) hidden++;
        if (name === 'pre') pre++;
        if (BLOCK.has(name) && !out.endsWith('\n')) out += '\n';
      },
      ontext(text) {
        if (hidden === 0) out += pre > 0 ? text : text.replace(/\s+/g, ' ');
      },
      onclosetag(name) {
        if (HIDDEN.has(name)) hidden = Math.max(0, hidden - 1);
        if (name === 'pre') pre = Math.max(0, pre - 1);
        if (PARAGRAPH.has(name)) out += '\n\n';
        else if (BLOCK.has(name) && !out.endsWith('\n')) out += '\n';
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  return out
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/g, '').replace(/^ +/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
