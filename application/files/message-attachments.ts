import { InvalidInput, NotFound, UnsupportedMediaType } from '../../domain/errors.js';
import { fileIdOfUrl } from '../../domain/files/file-reference.js';
import { modelFormOf, type UploadPolicy } from '../../domain/files/upload-policy.js';
import type { MessagePart, UiMessage } from '../../domain/threads/ui-message.js';
import type { Principal } from '../../domain/principal.js';
import type { FileBook } from './file-book.js';

interface FilePart {
  readonly type: 'file';
  readonly url: string;
  readonly mediaType?: string;
  readonly filename?: string;
}

export function isFilePart(part: MessagePart): part is MessagePart & FilePart {
  return part.type === 'file' && typeof (part as { url?: unknown }).url === 'string';
}

/**
 * The file parts of a person's new message, checked before the turn takes the thread: each must
 * name, by the URL its upload answered, a file this person uploaded in this thread (anything else
 * is not found, so nobody learns another person's file exists); `data:` and `http(s):` URLs are
 * refused (bytes come only through the upload, which sniffs and caps them); no more than the
 * host's count per message; and a type the model can neither read nor be given as text is refused
 * here, not mid-turn. Each part is rewritten from the stored file (its sniffed type and clean name).
 */
export class MessageAttachments {
  constructor(
    private readonly files: FileBook,
    private readonly policy: UploadPolicy,
  ) {}

  async checked(principal: Principal, threadId: string, message: UiMessage): Promise<UiMessage> {
    const parts = message.parts.filter(isFilePart);
    if (parts.length === 0) {
      if (message.parts.some((part) => part.type === 'file')) throw new InvalidInput('A file part needs the url its upload answered');
      return message;
    }
    if (parts.length > this.policy.maxFilesPerMessage)
      throw new InvalidInput(`A message may carry at most ${this.policy.maxFilesPerMessage} files`);
    const checked: MessagePart[] = [];
    for (const part of message.parts) {
      if (!isFilePart(part)) {
        checked.push(part);
        continue;
      }
      const id = fileIdOfUrl(part.url);
      if (!id)
        throw new InvalidInput('A file part must carry the url POST /threads/:id/files answered (data: and http(s): urls are not taken)');
      const loaded = await this.files.ownedBy(principal.subject, id);
      if (loaded.file.thread !== threadId) throw new NotFound('File');
      if (modelFormOf(this.policy, loaded.file.mediaType) === 'unreadable')
        throw new UnsupportedMediaType(`This model cannot read ${loaded.file.mediaType} files`);
      checked.push({ type: 'file', url: part.url, mediaType: loaded.file.mediaType, filename: loaded.file.filename });
    }
    return { ...message, parts: checked };
  }
}
