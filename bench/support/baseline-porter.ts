import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * An earlier commit of Porter, built, to measure beside this checkout in the same run: its tree
 * (`git archive`) in a folder of the system's temporary directory named by the commit, sharing this
 * checkout's `node_modules` (the commits a bench compares with need no dependency this checkout
 * lacks), built with its own `scripts/build.ts`. Built once; later runs reuse the folder. Null, with
 * a warning, when the commit cannot be had (a shallow clone) or does not build.
 */
export function builtBaseline(ref: string): { root: string; commit: string } | null {
  let commit: string;
  try {
    commit = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' }).trim();
  } catch {
    console.warn(`baseline ${ref}: not in this clone's history (a shallow clone?); measured without it`);
    return null;
  }
  const root = join(tmpdir(), `porter-bench-baseline-${commit}`);
  // Written last, so a build cut short is built again.
  const built = join(root, '.built');
  if (existsSync(built)) return { root, commit };
  console.log(`building Porter at ${commit.slice(0, 7)} in ${root} for the bench`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  try {
    execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C '${root}'`], { cwd: ROOT, stdio: 'inherit' });
    symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(root, 'scripts', 'build.ts')], {
      cwd: root,
      stdio: 'inherit',
    });
    writeFileSync(built, '');
    return { root, commit };
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    console.warn(`baseline ${ref}: could not be built (${(error as Error).message}); measured without it`);
    return null;
  }
}
