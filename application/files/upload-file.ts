import { NotFound, PayloadTooLarge, UnsupportedMediaType } from '../../domain/errors.js';
import { UploadedFile } from '../../domain/files/uploaded-file.js';
import { bareMediaType, judgedMediaType, matchesMediaType, type UploadPolicy } from '../../domain/files/upload-policy.js';
import type { Clock } from '../../ports/clock.js';
import type { FileBlobs } from '../../ports/file-blobs.js';
import type { MediaSniffer } from '../../ports/file-contents.js';
import type { Ids } from '../../ports/ids.js';
import type { Telemetry } from '../../ports/telemetry.js';
import type { UseCase } from '../../ports/use-case.js';
import type { FileView, UploadInput } from '../../ports/use-cases/files.js';
import type { ThreadBook } from '../threads/thread-book.js';
import type { UsageMeter } from '../usage/usage-meter.js';
import { fileView, type FileBook } from './file-book.js';
import { looksLikeText, readHead } from './sniffed-upload.js';

/** How many leading bytes are read ahead to sniff (file-type's signatures fit in about 4 KiB). */
const SNIFF_BYTES = 4100;

export interface UploadFileDeps {
  readonly threads: ThreadBook;
  readonly files: FileBook;
  readonly blobs: FileBlobs;
  readonly sniffer: MediaSniffer;
  readonly policy: UploadPolicy;
  readonly ids: Ids;
  readonly clock: Clock;
  readonly telemetry: Telemetry;
  /** The subject's `uploadBytes` budget (`NoUsageMeter`: nothing is metered). */
  readonly meter: UsageMeter;
}

/**
 * `POST /threads/:id/files`. The bytes stream from the request into the file blobs; what they are
 * is judged from their first bytes (a signature wins over the client's word, and bytes without one
 * are text only when they read as text and the client said text), and a type the host does not
 * accept is refused before anything is written. The cap is enforced while reading: past it the
 * write stops and removes what it wrote (413). Only then is the metadata saved and, once the
 * thread is known to be still there, the bytes counted against the subject's `uploadBytes`: a
 * failed save or a thread deleted meanwhile charges nothing, and a refusal of the charge (429)
 * removes the record and the bytes, so nothing is stored and nothing charged.
 */
export class UploadFile implements UseCase<UploadInput, FileView> {
  constructor(private readonly deps: UploadFileDeps) {}

  execute(input: UploadInput): Promise<FileView> {
    return this.deps.telemetry.span('porter.file.upload', { 'porter.thread.id': input.threadId }, async (span) => {
      const view = await this.upload(input);
      span.set({ 'porter.file.id': view.id, 'porter.file.size': view.size, 'porter.file.media_type': view.mediaType });
      return view;
    });
  }

  private async upload(input: UploadInput): Promise<FileView> {
    const { threads, files, blobs, sniffer, policy, ids, clock, meter } = this.deps;
    await threads.ownedBy(input.principal.subject, input.threadId);
    if (input.declaredLength !== undefined && input.declaredLength > policy.maxBytes) throw tooLarge(policy.maxBytes);
    await meter.ensureLeft(input.principal, 'uploadBytes');

    const { head, whole } = await readHead(input.chunks, SNIFF_BYTES);
    if (head.byteLength === 0) throw new UnsupportedMediaType('The file is empty');
    const declared = bareMediaType(input.declaredType);
    const mediaType = judgedMediaType(await sniffer.sniff(head), declared, looksLikeText(head));
    if (!mediaType || !matchesMediaType(policy.accept, mediaType)) {
      throw new UnsupportedMediaType(
        `${mediaType ? `Files of type ${mediaType}` : 'Files whose bytes are not a known type'} are not accepted here; accepted: ${policy.accept.join(', ')}`,
      );
    }

    const id = ids.mint('file');
    const { size } = await blobs.write(id, whole, { maxBytes: policy.maxBytes });
    const file = UploadedFile.stored({
      id,
      owner: input.principal.subject,
      thread: input.threadId,
      filename: input.filename,
      mediaType,
      size,
      createdAt: clock.now().toISOString(),
    });
    try {
      await files.save(file);
      // A thread deleted while its file streamed in took its files already: this one goes too.
      if (!(await threads.find(input.threadId))) throw new NotFound('Thread');
      // Charged last, so bytes that are not kept (a failed save, a thread gone) are never paid for.
      await meter.charge(input.principal, 'uploadBytes', size);
    } catch (error) {
      await files.remove(id).catch(() => undefined);
      await blobs.delete(id).catch(() => undefined);
      throw error;
    }
    return fileView(file);
  }
}

function tooLarge(maxBytes: number): PayloadTooLarge {
  return new PayloadTooLarge(`A file may hold at most ${maxBytes} bytes`, { maxBytes });
}
