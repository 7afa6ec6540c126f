import { constants } from 'node:fs';
import { chmod, lstat, mkdir, open, readdir, readlink, rename, symlink, unlink, writeFile } from 'node:fs/promises';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { SandboxFile } from '../../../ports/sandbox.js';
import { relativeAppPath } from '../app-paths.js';
import { InvalidInput } from '../../../domain/errors.js';
import type { PackedEntry } from './gate-process.js';

/**
 * An app's files as the host keeps them: its working tree and its snapshots, in folders no app
 * process ever sees (a running app gets a copy, unpacked inside its sandbox by the gate). Still,
 * every walk here reads links as links and opens nothing through one, and every write lands whole
 * (written aside, then renamed over the old entry), so a link left in a tree by an older Porter,
 * or by an import, can neither send a read outside the tree nor carry a write out of it.
 */

/** The files of a tree, in a stable order, and a digest of exactly what they hold. */
export interface PackedTree {
  readonly entries: ReadonlyArray<PackedEntry>;
  readonly digest: string;
}

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Reads a tree (missing: empty). Sockets, fifos and devices are skipped; links are kept as links. */
export async function packTree(root: string): Promise<PackedTree> {
  const entries: PackedEntry[] = [];
  await walk(root, '', entries);
  const hash = createHash('sha256');
  for (const entry of entries) {
    hash.update(`${entry.kind}\0${entry.path}\0${entry.mode ?? ''}\0${entry.target ?? ''}\0${entry.data?.length ?? 0}\0`);
    if (entry.data) hash.update(entry.data);
  }
  return { entries, digest: hash.digest('hex') };
}

async function walk(root: string, relative: string, into: PackedEntry[]): Promise<void> {
  const folder = relative ? join(root, relative) : root;
  const names = await readdir(folder, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' && !relative) return [];
    throw error;
  });
  names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const name of names) {
    const path = relative ? `${relative}/${name.name}` : name.name;
    const place = join(root, path);
    if (name.isSymbolicLink()) into.push({ path, kind: 'link', target: await readlink(place) });
    else if (name.isDirectory()) {
      into.push({ path, kind: 'dir' });
      await walk(root, path, into);
    } else if (name.isFile()) {
      const file = await readRegular(place);
      if (file) into.push({ path, kind: 'file', mode: file.mode, data: file.data });
    }
  }
}

/** A regular file's bytes and mode, opened without following a link; null when it is not one (any more). */
async function readRegular(place: string): Promise<{ data: Uint8Array; mode: number } | null> {
  const handle = await open(place, READ_FLAGS).catch(() => null);
  if (!handle) return null;
  try {
    const info = await handle.stat();
    if (!info.isFile()) return null;
    return { data: await handle.readFile(), mode: info.mode & 0o777 };
  } finally {
    await handle.close();
  }
}

/** Writes a packed tree into a folder that does not exist yet (a snapshot, or a restore's staging). */
export async function unpackTree(root: string, entries: ReadonlyArray<PackedEntry>): Promise<void> {
  await mkdir(root, { recursive: true, mode: 0o700 });
  // Folders first (a walk lists each before what it holds), then every file and link at once.
  for (const entry of entries) if (entry.kind === 'dir') await mkdir(join(root, ...checkedParts(entry.path)), { recursive: true });
  await Promise.all(
    entries.map((entry) => {
      const place = join(root, ...checkedParts(entry.path));
      if (entry.kind === 'link') return symlink(entry.target ?? '', place);
      if (entry.kind === 'file')
        return writeFile(place, entry.data ?? new Uint8Array(), { flag: 'wx', mode: (entry.mode ?? 0o644) & 0o777 });
      return undefined;
    }),
  );
}

/**
 * Writes files into a working tree. A folder on a file's way that is a link is replaced by a real
 * folder (the link is removed, never followed); each file is written aside and renamed into place.
 */
export async function writeTreeFiles(root: string, files: ReadonlyArray<SandboxFile>): Promise<void> {
  await mkdir(root, { recursive: true, mode: 0o700 });
  for (const file of files) {
    const parts = relativeAppPath(file.path).split('/');
    let folder = root;
    for (const [index, part] of parts.slice(0, -1).entries()) {
      folder = join(folder, part);
      await ensureFolder(folder, `/app/${parts.slice(0, index + 1).join('/')}`, file.path);
    }
    const target = join(folder, parts.at(-1)!);
    if ((await lstat(target).catch(() => null))?.isDirectory()) throw new InvalidInput(`${file.path} is a folder`);
    const aside = join(folder, `.porter-${randomBytes(6).toString('hex')}`);
    await writeFile(aside, file.content, { flag: 'wx', mode: 0o600 });
    try {
      await chmod(aside, (file.mode ?? 0o644) & 0o777);
      await rename(aside, target);
    } catch (error) {
      await unlink(aside).catch(() => undefined);
      throw error;
    }
  }
}

async function ensureFolder(folder: string, shownAs: string, forPath: string): Promise<void> {
  const info = await lstat(folder).catch(() => null);
  if (info?.isDirectory()) return;
  if (info?.isSymbolicLink()) await unlink(folder);
  else if (info) throw new InvalidInput(`${forPath} needs ${shownAs} to be a folder, and it is a file`);
  await mkdir(folder);
}

/** A packed path, split: plain names only (the tree's own walk makes nothing else). */
function checkedParts(path: string): string[] {
  const parts = path.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..' || part.includes('\0')))
    throw new InvalidInput(`A packed path must be plain (got ${JSON.stringify(path.slice(0, 200))})`);
  return parts;
}
