/**
 * Where uploaded files' bytes live, streamed both ways so a file never has to fit in memory:
 * the host's database by default (chunks as rows), a folder on disk, or an S3-compatible bucket.
 * Keys are ids Porter minted (`fil_…`); adapters refuse any other shape.
 */
export interface FileBlobs {
  /** `database`, `disk` or `s3`: what /status and the logs say. */
  readonly kind: string;
  /**
   * Stores `chunks` under `key`, counting bytes as they arrive. Past `maxBytes` the write stops
   * reading, removes whatever it had written and throws `PayloadTooLarge`: nothing is stored. A
   * failing source (the client went away) also leaves nothing. Answers the size written.
   */
  write(key: string, chunks: AsyncIterable<Uint8Array>, options: { readonly maxBytes: number }): Promise<{ readonly size: number }>;
  /** The bytes, streamed in order; null when nothing is stored under `key`. */
  read(key: string): Promise<AsyncIterable<Uint8Array> | null>;
  /** Removes the bytes; nothing stored is no error. */
  delete(key: string): Promise<void>;
}

/** Reads a whole blob (for the model, which takes a file's bytes at once). */
export async function bytesOf(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    parts.push(chunk);
    size += chunk.byteLength;
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.byteLength;
  }
  return all;
}
