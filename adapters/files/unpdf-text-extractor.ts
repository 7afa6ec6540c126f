import { extractText } from 'unpdf';
import { InvalidInput } from '../../domain/errors.js';
import type { TextExtractor } from '../../ports/file-contents.js';

/** A PDF's text, page after page, by unpdf (Mozilla's PDF.js, without a worker or a canvas). */
export class UnpdfTextExtractor implements TextExtractor {
  readonly reads = ['application/pdf'];

  async extract(bytes: Uint8Array, mediaType: string): Promise<string> {
    if (mediaType !== 'application/pdf') throw new InvalidInput(`Text cannot be extracted from ${mediaType}`);
    try {
      // PDF.js takes ownership of the buffer it is given; a copy keeps the caller's bytes usable.
      const { text } = await extractText(new Uint8Array(bytes), { mergePages: false });
      return text.map((page, index) => `[page ${index + 1}]\n${page.trim()}`).join('\n\n');
    } catch (error) {
      if (error instanceof InvalidInput) throw error;
      throw new InvalidInput('The PDF could not be read');
    }
  }
}
