import { fileIdOfUrl } from '../../domain/files/file-reference.js';
import { modelFormOf, type UploadPolicy } from '../../domain/files/upload-policy.js';
import type { MessagePart, UiMessage } from '../../domain/threads/ui-message.js';
import { bytesOf, type FileBlobs } from '../../ports/file-blobs.js';
import type { TextExtractor } from '../../ports/file-contents.js';
import type { Logger } from '../../ports/logger.js';
import type { FileBook } from './file-book.js';
import { isFilePart } from './message-attachments.js';

/**
 * What the model is shown of a thread's files, in the form its provider takes: a file it reads
 * (`modelReads`: images and PDF by default) as the file itself (a `data:` URL the AI SDK turns into
 * the provider's own image or document part), a text file as its text, a PDF it cannot read as the
 * PDF's extracted text. A file that is gone (or not the owner's) is said to be unavailable.
 */
export class ModelAttachments {
  constructor(
    private readonly files: FileBook,
    private readonly blobs: FileBlobs,
    private readonly extractor: TextExtractor,
    private readonly policy: UploadPolicy,
    private readonly logger: Logger,
  ) {}

  /** A resolver for one turn: each file is read once however many steps show it. */
  forTurn(owner: string): (messages: ReadonlyArray<UiMessage>) => Promise<UiMessage[]> {
    const shown = new Map<string, Promise<MessagePart>>();
    return async (messages) => {
      const out: UiMessage[] = [];
      for (const message of messages) {
        if (!message.parts.some(isFilePart)) {
          out.push(message);
          continue;
        }
        const parts: MessagePart[] = [];
        for (const part of message.parts) {
          if (!isFilePart(part)) {
            parts.push(part);
            continue;
          }
          let resolved = shown.get(part.url);
          if (!resolved) shown.set(part.url, (resolved = this.partFor(owner, part.url)));
          parts.push(await resolved);
        }
        out.push({ ...message, parts });
      }
      return out;
    };
  }

  private async partFor(owner: string, url: string): Promise<MessagePart> {
    const id = fileIdOfUrl(url);
    const loaded = id ? await this.files.find(id) : null;
    const file = loaded?.file.owner === owner ? loaded.file : null;
    const chunks = file ? await this.blobs.read(file.id) : null;
    if (!file || !chunks) return { type: 'text', text: '[An attached file is no longer available.]' };
    const bytes = await bytesOf(chunks);
    const form = modelFormOf(this.policy, file.mediaType);
    if (form === 'file')
      return { type: 'file', mediaType: file.mediaType, filename: file.filename, url: `data:${file.mediaType};base64,${base64(bytes)}` };
    if (form === 'text') return { type: 'text', text: `[Attached file ${file.filename}]\n${new TextDecoder().decode(bytes)}` };
    try {
      const text = await this.extractor.extract(bytes, file.mediaType);
      return { type: 'text', text: `[Attached file ${file.filename}, its text extracted]\n${text}` };
    } catch (error) {
      this.logger.warn('an attached file could not be read as text', { fileId: file.id, cause: String(error) });
      return { type: 'text', text: `[Attached file ${file.filename} could not be read.]` };
    }
  }
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
