import { cp, lstat, mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ulid } from 'ulid';
import { SandboxSnapshotNotFound } from '../sandbox-errors.js';

const SNAPSHOT_ID = /^snp_[0-9A-HJKMNP-TV-Z]{26}$/;

/** Only what a server's files are made of: sockets, fifos and devices are skipped, links copied as links. */
async function copyable(source: string): Promise<boolean> {
  const info = await lstat(source);
  return info.isFile() || info.isDirectory() || info.isSymbolicLink();
}

/**
 * Copies of one app directory, kept beside it (outside the app's reach through `/app`), and the
 * swap that puts one back: the copy is staged first and renamed into place, so a failed restore
 * leaves the current files whole.
 */
export class DirectorySnapshots {
  constructor(
    private readonly directory: string,
    private readonly store: string,
    private readonly staging: string,
  ) {}

  async take(): Promise<string> {
    const id = `snp_${ulid()}`;
    await mkdir(this.store, { recursive: true });
    await cp(this.directory, join(this.store, id), { recursive: true, verbatimSymlinks: true, filter: copyable });
    return id;
  }

  /**
   * Copies a snapshot aside and returns the swap that puts it in place. Staging first means an
   * unknown id or a failed copy is found out while the current server still runs.
   */
  async stage(id: string): Promise<() => Promise<void>> {
    if (!SNAPSHOT_ID.test(id)) throw new SandboxSnapshotNotFound();
    const source = join(this.store, id);
    if (!(await stat(source).catch(() => null))?.isDirectory()) throw new SandboxSnapshotNotFound();
    await mkdir(this.staging, { recursive: true });
    const tag = randomBytes(6).toString('hex');
    const incoming = join(this.staging, `incoming-${tag}`);
    const outgoing = join(this.staging, `outgoing-${tag}`);
    try {
      await cp(source, incoming, { recursive: true, verbatimSymlinks: true, filter: copyable });
    } catch (error) {
      await rm(incoming, { recursive: true, force: true });
      throw error;
    }
    return async () => {
      try {
        await rename(this.directory, outgoing);
        await rename(incoming, this.directory);
      } catch (error) {
        if (!(await stat(this.directory).catch(() => null)) && (await stat(outgoing).catch(() => null)))
          await rename(outgoing, this.directory);
        throw error;
      } finally {
        await rm(incoming, { recursive: true, force: true });
        await rm(outgoing, { recursive: true, force: true });
      }
    };
  }
}
