import { token } from '../tokens.js';
import type { FileBook } from '../../application/files/file-book.js';
import type { FileBlobs } from '../../ports/file-blobs.js';
import type { FileUseCases } from '../../ports/use-cases/files.js';
import type { ThreadFiles } from '../../application/files/thread-files.js';
import type { MessageAttachments } from '../../application/files/message-attachments.js';
import type { ModelAttachments } from '../../application/files/model-attachments.js';

/** Uploads' services: what files-module.ts binds. */
export const FILE_TOKENS = {
  /** Uploaded files' metadata, and where their bytes are kept (`uploads.store`). */
  FileBook: token<FileBook>('FileBook'),
  FileBlobs: token<FileBlobs>('FileBlobs'),
  FileUseCases: token<FileUseCases>('FileUseCases'),
  /** A thread's files, deleted with it. */
  ThreadFiles: token<ThreadFiles>('ThreadFiles'),
  /** A new message's file parts, checked against the person's uploads. */
  MessageAttachments: token<MessageAttachments>('MessageAttachments'),
  /** The thread's files in the form the model's provider takes. */
  ModelAttachments: token<ModelAttachments>('ModelAttachments'),
};
