import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../use-case.js';

/** An uploaded file as the wire shows it; `url` is added by the wire, which knows where it is mounted. */
export interface FileView {
  readonly id: string;
  readonly threadId: string;
  readonly filename: string;
  readonly mediaType: string;
  readonly size: number;
  readonly createdAt: string;
}

export interface UploadInput {
  readonly principal: Principal;
  readonly threadId: string;
  readonly filename: string;
  /** What the client said the bytes are (`Content-Type`): a hint for text only, never trusted. */
  readonly declaredType: string;
  /** What the client said the size is (`Content-Length`), when it said: a larger one is refused before reading. */
  readonly declaredLength?: number;
  /** The bytes as they arrive. */
  readonly chunks: AsyncIterable<Uint8Array>;
}

export interface FileUseCases {
  /** `POST /threads/:id/files`: streams one file into the file blobs, or refuses with nothing stored. */
  readonly uploadFile: UseCase<UploadInput, FileView>;
  /** `GET /files/:id`: the owner's file and its bytes (another person's is 404). */
  readonly readFile: UseCase<{ principal: Principal; fileId: string }, { file: FileView; chunks: AsyncIterable<Uint8Array> }>;
}
