import type { ContainerModule } from 'inversify';
import { get, porterModule, recordsOf, TOKENS } from '../tokens.js';
import { FILE_TOKENS } from './files-tokens.js';
import { THREAD_TOKENS } from './threads-tokens.js';
import { USAGE_TOKENS } from './usage-tokens.js';
import type { UploadedFilePrimitives } from '../../domain/files/uploaded-file.js';
import type { UploadPolicy } from '../../domain/files/upload-policy.js';
import type { PorterConfig } from '../config/config-schema.js';
import type { FileBlobs } from '../../ports/file-blobs.js';
import { FileBook } from '../../application/files/file-book.js';
import { FilesAdopter } from '../../application/files/files-adopter.js';
import { MessageAttachments } from '../../application/files/message-attachments.js';
import { ModelAttachments } from '../../application/files/model-attachments.js';
import { ReadFile } from '../../application/files/read-file.js';
import { ThreadFiles } from '../../application/files/thread-files.js';
import { UploadFile } from '../../application/files/upload-file.js';
import { DatabaseFileBlobs } from '../../adapters/files/database-file-blobs.js';
import { FileTypeSniffer } from '../../adapters/files/file-type-sniffer.js';
import { UnpdfTextExtractor } from '../../adapters/files/unpdf-text-extractor.js';
import { fileRoutes } from '../../adapters/http/routes/file-routes.js';

export function uploadPolicyOf(config: PorterConfig): UploadPolicy {
  const { accept, maxBytes, maxFilesPerMessage, modelReads } = config.uploads;
  return { accept, maxBytes, maxFilesPerMessage, modelReads };
}

/**
 * Uploads: files people attach to messages, their metadata on the store, their bytes where
 * `uploads.store` says (`uploadStore`, loaded at boot; null: the store's own database), and the
 * routes that stream them in and out.
 */
export function filesModule(uploadStore: FileBlobs | null): ContainerModule {
  return porterModule((bind) => {
    bind.singleton(FILE_TOKENS.FileBook, (ctx) => new FileBook(recordsOf<UploadedFilePrimitives>(ctx, 'files')));
    bind.singleton(FILE_TOKENS.FileBlobs, (ctx) => uploadStore ?? new DatabaseFileBlobs(get(ctx, TOKENS.Store)));
    bind.singleton(
      FILE_TOKENS.ThreadFiles,
      (ctx) => new ThreadFiles(get(ctx, FILE_TOKENS.FileBook), get(ctx, FILE_TOKENS.FileBlobs), get(ctx, TOKENS.Logger)),
    );
    bind.singleton(
      FILE_TOKENS.MessageAttachments,
      (ctx) => new MessageAttachments(get(ctx, FILE_TOKENS.FileBook), uploadPolicyOf(get(ctx, TOKENS.Config))),
    );
    bind.singleton(
      FILE_TOKENS.ModelAttachments,
      (ctx) =>
        new ModelAttachments(
          get(ctx, FILE_TOKENS.FileBook),
          get(ctx, FILE_TOKENS.FileBlobs),
          new UnpdfTextExtractor(),
          uploadPolicyOf(get(ctx, TOKENS.Config)),
          get(ctx, TOKENS.Logger),
        ),
    );
    bind.singleton(FILE_TOKENS.FileUseCases, (ctx) => ({
      uploadFile: new UploadFile({
        threads: get(ctx, THREAD_TOKENS.ThreadBook),
        files: get(ctx, FILE_TOKENS.FileBook),
        blobs: get(ctx, FILE_TOKENS.FileBlobs),
        sniffer: new FileTypeSniffer(),
        policy: uploadPolicyOf(get(ctx, TOKENS.Config)),
        ids: get(ctx, TOKENS.Ids),
        clock: get(ctx, TOKENS.Clock),
        telemetry: get(ctx, TOKENS.Telemetry),
        meter: get(ctx, USAGE_TOKENS.UsageMeter),
      }),
      readFile: new ReadFile(get(ctx, FILE_TOKENS.FileBook), get(ctx, FILE_TOKENS.FileBlobs)),
    }));
    bind(TOKENS.SessionAdopters).toDynamicValue((ctx) => new FilesAdopter(get(ctx, FILE_TOKENS.FileBook)));
    bind(TOKENS.WireRoutes).toDynamicValue((ctx) =>
      fileRoutes(get(ctx, FILE_TOKENS.FileUseCases), { mount: get(ctx, TOKENS.Config).mount }),
    );
  });
}
