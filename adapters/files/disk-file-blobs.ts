import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { FileBlobs } from '../../ports/file-blobs.js';
import { countedChunks } from './counted-chunks.js';
import { assertFileKey } from './file-key.js';

/**
 * Files in a folder on disk: one file per id (ids only, so no key reaches outside the folder),
 * written under a temporary name and renamed into place when complete, so a reader never sees half
 * a file and a refused or broken upload leaves nothing behind. Several instances may share the
 * folder (a network volume).
 */
export class DiskFileBlobs implements FileBlobs {
  readonly kind = 'disk';
  private readonly root: string;

  constructor(folder: string) {
    this.root = resolve(folder);
  }

  async write(key: string, chunks: AsyncIterable<Uint8Array>, options: { maxBytes: number }): Promise<{ size: number }> {
    const target = this.pathOf(key);
    await mkdir(this.root, { recursive: true });
    const temporary = join(this.root, `.${assertFileKey(key)}.${randomUUID()}.part`);
    const seen = { size: 0 };
    const handle = await open(temporary, 'wx', 0o600);
    try {
      for await (const chunk of countedChunks(chunks, options.maxBytes, seen)) await handle.write(chunk);
      await handle.sync();
      await handle.close();
      await rename(temporary, target);
    } catch (error) {
      await handle.close().catch(() => undefined);
      await rm(temporary, { force: true });
      throw error;
    }
    return { size: seen.size };
  }

  async read(key: string): Promise<AsyncIterable<Uint8Array> | null> {
    const path = this.pathOf(key);
    try {
      await stat(path);
    } catch {
      return null;
    }
    return createReadStream(path, { highWaterMark: 64 * 1024 });
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  private pathOf(key: string): string {
    return join(this.root, assertFileKey(key));
  }
}
