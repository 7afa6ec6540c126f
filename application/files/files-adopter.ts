import type { SessionAdopter } from '../identity/session-adopter.js';
import type { FileBook } from './file-book.js';

/** Moves an anonymous session's files with its threads. */
export class FilesAdopter implements SessionAdopter {
  readonly family = 'files';

  constructor(private readonly files: FileBook) {}

  async adopt(fromSubject: string, toSubject: string): Promise<void> {
    for (const { file } of await this.files.all({ owner: fromSubject })) await this.files.save(file.movedTo(toSubject));
  }
}
