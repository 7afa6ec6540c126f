import type { FileBlobs } from '../../ports/file-blobs.js';
import type { Logger } from '../../ports/logger.js';
import type { FileBook } from './file-book.js';

/** A thread's files, as the thread's own deletion sees them: they go with it, bytes first. */
export class ThreadFiles {
  constructor(
    private readonly files: FileBook,
    private readonly blobs: FileBlobs,
    private readonly logger: Logger,
  ) {}

  /** Removes every file attached in the thread: its bytes, then its metadata (so a failure leaves it findable for a retry). */
  async deleteAllOf(threadId: string): Promise<void> {
    for (const { file } of await this.files.all({ thread: threadId })) {
      await this.blobs.delete(file.id);
      await this.files.remove(file.id);
      this.logger.info('file deleted with its thread', { threadId, fileId: file.id });
    }
  }
}
