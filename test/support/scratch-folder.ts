import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A fresh folder under the system's temporary directory, named from `prefix`, for each test (`each`)
 * or for the whole suite, and removed after it. Call it in a `describe`; `path()` reads the folder
 * in hooks registered after it and in tests.
 */
export function scratchFolder(prefix: string, options: { each?: boolean } = {}): { path(): string } {
  let folder: string | undefined;
  (options.each ? beforeEach : before)(async () => {
    folder = await mkdtemp(join(tmpdir(), prefix));
  });
  (options.each ? afterEach : after)(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });
  return {
    path() {
      if (!folder) throw new Error('the scratch folder is made before the first test');
      return folder;
    },
  };
}
