import { NotFound } from '../../domain/errors.js';
import type { FileBlobs } from '../../ports/file-blobs.js';
import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../../ports/use-case.js';
import type { FileView } from '../../ports/use-cases/files.js';
import { fileView, type FileBook } from './file-book.js';

/** `GET /files/:id`: the owner's file, streamed from the file blobs; anyone else's is not found. */
export class ReadFile implements UseCase<{ principal: Principal; fileId: string }, { file: FileView; chunks: AsyncIterable<Uint8Array> }> {
  constructor(
    private readonly files: FileBook,
    private readonly blobs: FileBlobs,
  ) {}

  async execute(input: { principal: Principal; fileId: string }): Promise<{ file: FileView; chunks: AsyncIterable<Uint8Array> }> {
    const { file } = await this.files.ownedBy(input.principal.subject, input.fileId);
    const chunks = await this.blobs.read(file.id);
    if (!chunks) throw new NotFound('File');
    return { file: fileView(file), chunks };
  }
}
