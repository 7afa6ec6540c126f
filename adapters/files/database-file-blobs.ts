import type { FileBlobs } from '../../ports/file-blobs.js';
import type { BlobStore, Store } from '../../ports/store.js';
import { countedChunks, pieces } from './counted-chunks.js';
import { assertFileKey } from './file-key.js';

/** Each stored row holds this much of a file: what a read or a write keeps in memory at once. */
export const DATABASE_CHUNK_BYTES = 256 * 1024;

/**
 * Files in the host's own database (the default, so one PostgreSQL or SQLite file holds
 * everything): each file is a blob namespace of its own (`porter-file:<id>`) holding its bytes as
 * numbered chunk rows, so neither a write nor a read holds more than a chunk. Works on every Store,
 * the host's own included.
 */
export class DatabaseFileBlobs implements FileBlobs {
  readonly kind = 'database';

  constructor(private readonly store: Store) {}

  async write(key: string, chunks: AsyncIterable<Uint8Array>, options: { maxBytes: number }): Promise<{ size: number }> {
    const blobs = this.blobsOf(key);
    const seen = { size: 0 };
    let index = 0;
    try {
      for await (const piece of pieces(countedChunks(chunks, options.maxBytes, seen), DATABASE_CHUNK_BYTES)) {
        await blobs.put(chunkKey(index++), piece, 'application/octet-stream');
      }
    } catch (error) {
      await this.delete(key).catch(() => undefined);
      throw error;
    }
    return { size: seen.size };
  }

  async read(key: string): Promise<AsyncIterable<Uint8Array> | null> {
    const blobs = this.blobsOf(key);
    const chunks = await blobs.list();
    if (chunks.length === 0) return null;
    return (async function* () {
      // Keys are zero-padded, so the store's key order is the file's order.
      for (const info of chunks) {
        const chunk = await blobs.get(info.key);
        if (chunk) yield chunk.bytes;
      }
    })();
  }

  async delete(key: string): Promise<void> {
    const blobs = this.blobsOf(key);
    for (const info of await blobs.list()) await blobs.delete(info.key);
  }

  private blobsOf(key: string): BlobStore {
    return this.store.blobs(`porter-file:${assertFileKey(key)}`);
  }
}

function chunkKey(index: number): string {
  return String(index).padStart(8, '0');
}
