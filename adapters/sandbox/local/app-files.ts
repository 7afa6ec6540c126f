import { chmod, lstat, mkdir, realpath, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { SandboxFile } from '../../../ports/sandbox.js';
import { relativeAppPath } from '../app-paths.js';
import { InvalidInput } from '../../../domain/errors.js';

/**
 * Writes files into an app directory. Each lands whole (written aside, then renamed) so a running
 * server never reads half a file, and a link the app planted cannot carry a write outside it.
 */
export async function writeAppFiles(directory: string, files: ReadonlyArray<SandboxFile>): Promise<void> {
  const root = await realpath(directory);
  const inside = (path: string) => path === root || path.startsWith(`${root}${sep}`);
  for (const file of files) {
    const target = join(root, relativeAppPath(file.path));
    // Checked before mkdir too: creating directories through a planted link would already be a write outside.
    if (!inside(await realpath(await deepestExisting(dirname(target))))) throw new InvalidInput(`${file.path} resolves outside /app`);
    await mkdir(dirname(target), { recursive: true });
    if (!inside(await realpath(dirname(target)))) throw new InvalidInput(`${file.path} resolves outside /app`);
    if ((await lstat(target).catch(() => null))?.isSymbolicLink()) await unlink(target);
    const aside = `${target}.porter-${randomBytes(4).toString('hex')}`;
    await writeFile(aside, file.content);
    if (file.mode !== undefined) await chmod(aside, file.mode & 0o777);
    await rename(aside, target);
  }
}

async function deepestExisting(path: string): Promise<string> {
  let current = path;
  while (!(await stat(current).catch(() => null))) {
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return current;
}
