import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchResult } from '../support/harness.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The last commit before Porter was packaged: the 0.1.0 package, every integration a dependency. */
const ANCHOR_COMMIT = '27b6c0d';
/** The issue's goal: the core at most 40 % of the anchor's packages and megabytes. */
const GOAL = 0.4;

interface Installed {
  readonly packages: number;
  readonly megabytes: number;
  readonly seconds: number;
}

/**
 * What installing Porter costs a host: the packed tarball installed into an empty project, alone
 * (the core) and with every optional peer (everything), beside the 0.1.0 package built from
 * ANCHOR_COMMIT and installed the same way in the same run. Packages are those npm put on disk
 * (the tarball's own included); megabytes are node_modules' disk usage (`du`).
 */
export async function run(): Promise<BenchResult[]> {
  const work = mkdtempSync(join(tmpdir(), 'porter-install-bench-'));
  try {
    const current = pack(ROOT, work);
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { peerDependencies: Record<string, string> };
    const anchorSource = join(work, 'anchor-source');
    mkdirSync(anchorSource);
    execFileSync('sh', ['-c', `git -C '${ROOT}' archive ${ANCHOR_COMMIT} | tar -x -C '${anchorSource}'`]);
    const anchorTarball = pack(anchorSource, work);

    const anchor = install(work, 'anchor', [anchorTarball]);
    const core = install(work, 'core', [current]);
    const everything = install(work, 'everything', [
      current,
      ...Object.entries(manifest.peerDependencies).map(([name, range]) => `${name}@${range}`),
    ]);

    const row = (name: string, measured: Installed) => {
      const packages = measured.packages / anchor.packages;
      const megabytes = measured.megabytes / anchor.megabytes;
      return `${name.padEnd(34)} ${String(measured.packages).padStart(4)} packages ${measured.megabytes.toFixed(0).padStart(4)} MB  (${pct(packages)} / ${pct(megabytes)} of the anchor; installed in ${measured.seconds.toFixed(0)} s)`;
    };
    const met = core.packages <= GOAL * anchor.packages && core.megabytes <= GOAL * anchor.megabytes;
    console.log(
      [
        '\ninstall/install.bench.ts: installing the tarball into an empty project',
        `${`anchor: porter 0.1.0 (${ANCHOR_COMMIT})`.padEnd(34)} ${String(anchor.packages).padStart(4)} packages ${anchor.megabytes.toFixed(0).padStart(4)} MB  (installed in ${anchor.seconds.toFixed(0)} s)`,
        row('porter-runtime, core', core),
        row('porter-runtime, every optional peer', everything),
        `goal: the core at most ${pct(GOAL)} of the anchor's packages and megabytes: ${met ? 'met' : 'MISSED'}`,
      ].join('\n'),
    );
    return [];
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function pack(folder: string, destination: string): string {
  const output = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], {
    cwd: folder,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const report = JSON.parse(output.slice(output.indexOf('['))) as Array<{ filename: string }>;
  return join(destination, report[0]!.filename);
}

function install(work: string, name: string, specs: string[]): Installed {
  const project = join(work, name);
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: `install-bench-${name}`, private: true, type: 'module' }));
  const started = process.hrtime.bigint();
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...specs], { cwd: project, stdio: 'ignore' });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
  // Optional platform packages of other systems are in the lock but not on disk.
  const packages = Object.keys(lock.packages).filter((path) => path !== '' && existsSync(join(project, path))).length;
  return { packages, megabytes: diskMegabytes(join(project, 'node_modules')), seconds };
}

/** Disk usage as `du -sk` reports it (blocks, as the issue measured), not the files' apparent sizes. */
function diskMegabytes(path: string): number {
  const kilobytes = Number(execFileSync('du', ['-sk', path], { encoding: 'utf8' }).split(/\s/)[0]);
  return kilobytes / 1024;
}

function pct(share: number): string {
  return `${(share * 100).toFixed(0)} %`;
}
