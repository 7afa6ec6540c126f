import { InvalidInput, PayloadTooLarge } from '../../domain/errors.js';
import { MEDIA_TYPE_OF, type DocumentFormat } from '../../domain/knowledge/knowledge-document.js';
import type { TextExtractor } from '../../ports/file-contents.js';

// eslint-disable-next-line no-control-regex -- NUL and the other C0 controls but tab and line ends are what is dropped
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A document's text, out of what the host gave: text and Markdown as they are (Markdown reads well
 * as text, and its words are what is searched), HTML and PDF through their extractors. Bytes are
 * UTF-8 where the format is text; a size past the host's cap is 413, a PDF that is not one 400.
 */
export class DocumentText {
  private readonly extractors: ReadonlyMap<string, TextExtractor>;

  constructor(
    extractors: ReadonlyArray<TextExtractor>,
    private readonly maxBytes: number,
  ) {
    this.extractors = new Map(extractors.flatMap((extractor) => extractor.reads.map((type) => [type, extractor] as const)));
  }

  async of(format: DocumentFormat, content: string | Uint8Array): Promise<{ text: string; bytes: number }> {
    const bytes = typeof content === 'string' ? Buffer.byteLength(content, 'utf8') : content.byteLength;
    if (bytes > this.maxBytes)
      throw new PayloadTooLarge(`A document may be at most ${this.maxBytes} bytes; this one is ${bytes}`, { maxBytes: this.maxBytes });
    if (format === 'pdf' && typeof content === 'string')
      throw new InvalidInput('A PDF is given as bytes (base64 over the wire), not as text');
    const raw = format === 'text' || format === 'markdown' ? textOf(content) : await this.extract(format, content);
    // Line ends as one character, and nothing a store could not keep exactly.
    const text = raw.replace(/\r\n?/g, '\n').replace(CONTROL, ' ').replace(LONE_SURROGATE, '\ufffd').trim();
    if (!/[\p{L}\p{N}]/u.test(text)) throw new InvalidInput('The document has no words to answer from');
    // An extracted text far longer than what was given (a decompressed PDF) is held to the same cap.
    if (text.length > this.maxBytes)
      throw new PayloadTooLarge(`A document's text may be at most ${this.maxBytes} characters`, { maxBytes: this.maxBytes });
    return { text, bytes };
  }

  private async extract(format: DocumentFormat, content: string | Uint8Array): Promise<string> {
    const mediaType = MEDIA_TYPE_OF[format];
    const extractor = this.extractors.get(mediaType);
    if (!extractor) throw new InvalidInput(`Documents in ${format} cannot be read here`);
    return extractor.extract(typeof content === 'string' ? new TextEncoder().encode(content) : content, mediaType);
  }
}

function textOf(content: string | Uint8Array): string {
  if (typeof content === 'string') return content;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch {
    throw new InvalidInput('The document is not UTF-8 text');
  }
}
