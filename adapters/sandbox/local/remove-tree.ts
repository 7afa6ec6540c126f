import { chmod, lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Removes a folder the app has written to, whatever the app did to its permissions: a directory it
 * made unreadable (mode 000) would otherwise refuse removal to a host that is not root, and leave
 * the app undeletable. Links are removed, never followed.
 */
export async function removeTree(path: string): Promise<void> {
  try {
    await rm(path, { recursive: true, force: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EACCES' && code !== 'EPERM') throw error;
    await openUp(path);
    await rm(path, { recursive: true, force: true });
  }
}

/** Gives this user full access to every directory under `path` (files need none to be unlinked). */
async function openUp(path: string): Promise<void> {
  const info = await lstat(path).catch(() => null);
  if (!info?.isDirectory()) return;
  await chmod(path, 0o700);
  for (const entry of await readdir(path)) await openUp(join(path, entry));
}
