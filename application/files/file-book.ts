import { UploadedFile, type UploadedFilePrimitives } from '../../domain/files/uploaded-file.js';
import type { FileView } from '../../ports/use-cases/files.js';
import type { RecordSet } from '../../ports/store.js';
import { AggregateBook, asPrimitives } from '../shared/aggregate-book.js';
import { uploadedFileShape } from './stored-shapes.js';

/** Uploaded files' metadata, by owner and by thread (the bytes are in the FileBlobs under the same id). */
export class FileBook extends AggregateBook<'file', UploadedFile, UploadedFilePrimitives> {
  constructor(records: RecordSet<UploadedFilePrimitives>) {
    super(records, {
      collection: 'files',
      key: 'file',
      noun: 'File',
      schema: uploadedFileShape,
      ...asPrimitives(UploadedFile),
      refsOf: (props) => ({ owner: props.owner, thread: props.thread }),
      ownerOf: (file) => file.owner,
    });
  }

  async remove(id: string): Promise<void> {
    await this.records.delete(id);
  }
}

export function fileView(file: UploadedFile): FileView {
  return {
    id: file.id,
    threadId: file.thread,
    filename: file.filename,
    mediaType: file.mediaType,
    size: file.size,
    createdAt: file.createdAt,
  };
}
