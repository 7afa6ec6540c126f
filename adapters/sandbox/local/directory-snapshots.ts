import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ulid } from 'ulid';
import { SandboxSnapshotNotFound } from '../sandbox-errors.js';
import { packTree, unpackTree, type PackedTree } from './app-tree.js';

const SNAPSHOT_ID = /^snp_[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * Copies of one app's working tree, kept beside it, and the swap that puts one back: the copy is
 * staged first and renamed into place, so a failed restore leaves the working tree whole.
 */
export class DirectorySnapshots {
  constructor(
    private readonly directory: string,
    private readonly store: string,
    private readonly staging: string,
  ) {}

  /** Keeps `tree` (the working tree, already read) as a new snapshot; its id. */
  async take(tree: PackedTree): Promise<string> {
    const id = `snp_${ulid()}`;
    const aside = join(this.staging, `snapshot-${randomBytes(6).toString('hex')}`);
    try {
      await unpackTree(aside, tree.entries);
      await mkdir(this.store, { recursive: true });
      await rename(aside, join(this.store, id));
    } finally {
      await rm(aside, { recursive: true, force: true });
    }
    return id;
  }

  /**
   * Reads a snapshot and stages it; answers what it holds and the swap that makes it the working
   * tree. Staging first means an unknown id or a failed copy is found out while the server runs.
   */
  async stage(id: string): Promise<{ tree: PackedTree; swap: () => Promise<void> }> {
    if (!SNAPSHOT_ID.test(id)) throw new SandboxSnapshotNotFound();
    const source = join(this.store, id);
    if (!(await stat(source).catch(() => null))?.isDirectory()) throw new SandboxSnapshotNotFound();
    const tree = await packTree(source);
    const tag = randomBytes(6).toString('hex');
    const incoming = join(this.staging, `incoming-${tag}`);
    const outgoing = join(this.staging, `outgoing-${tag}`);
    try {
      await unpackTree(incoming, tree.entries);
    } catch (error) {
      await rm(incoming, { recursive: true, force: true });
      throw error;
    }
    const swap = async () => {
      try {
        if (await stat(this.directory).catch(() => null)) await rename(this.directory, outgoing);
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
    return { tree, swap };
  }
}
