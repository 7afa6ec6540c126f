import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SOURCES = ['domain', 'application', 'ports', 'adapters', 'composition'];
/** The shipped package's entry: what a host's `import { createPorter } from 'porter-runtime'` loads. */
export const BUILT_ENTRY = join(ROOT, 'dist', 'composition', 'index.js');

/** A module of the built package, by its path under `dist/` (`composition/dev-host/dev-host.js`). */
export async function builtModule<T>(path: string): Promise<T> {
  return (await import(pathToFileURL(join(ROOT, 'dist', path)).href)) as T;
}

function newestUnder(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Builds `dist/` (`npm run build`) when it is missing or older than a source file, so a bench that
 * measures Porter's own CPU runs the JavaScript hosts run, not the sources as tsx transforms them
 * (esbuild's name-keeping wrappers and source-mapped stacks cost CPU a host never pays).
 */
export function ensureBuilt(): void {
  const built = existsSync(BUILT_ENTRY) ? statSync(BUILT_ENTRY).mtimeMs : 0;
  if (built > Math.max(...SOURCES.map((folder) => newestUnder(join(ROOT, folder))))) return;
  console.log('building dist/ (npm run build) for the bench');
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(ROOT, 'scripts', 'build.ts')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}
