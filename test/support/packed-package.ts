import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Ran {
  readonly code: number | null;
  readonly output: string;
}

/** Runs a command to its end; its output is kept for the failure message. */
export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** `run`, failing with the end of the output unless the command exits 0. */
export async function succeed(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const ran = await run(command, args, cwd, env);
  if (ran.code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${ran.code}):\n${ran.output.slice(-4000)}`);
  return ran.output;
}

/**
 * A host process, and the line it prints once it listens (or the output it died with). Its
 * environment is `env` over PATH and HOME alone: what a deployed host has, not the test run's.
 */
export function startHost(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  ready: RegExp,
): Promise<{ child: ChildProcess; match: RegExpMatchArray; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')} did not start:\n${output}`));
    }, 90_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(ready);
      if (match) {
        clearTimeout(timer);
        resolve({ child, match, output: () => output });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited (${code}) before it listened:\n${output}`));
    });
  });
}

/** Ends a host started with `startHost`: SIGTERM, then SIGKILL after 10 s. */
export function stopHost(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export interface PackedPackage {
  /** The tarball `npm pack` wrote. */
  readonly tarball: string;
  /** The paths inside it, as `npm pack --json` lists them. */
  readonly files: string[];
}

let packing: Promise<PackedPackage> | undefined;

/**
 * The package as `npm pack` makes it (its `prepack` build included), once per test run: every
 * suite that installs the published package shares the one tarball, across the worker processes
 * of a parallel run too (`npm pack` builds the checkout's `dist/`, so two builds at once would
 * trample each other): the first process to ask packs into the run's folder
 * (`PORTER_TEST_RUN_DIR`, made by `test/support/test-services.ts`), the others wait for what it
 * writes there, its failure included. Removed when the run ends.
 */
export function packedPackage(): Promise<PackedPackage> {
  const run = process.env.PORTER_TEST_RUN_DIR;
  packing ??= run ? sharedPack(run) : packInto(ownFolder());
  // A failed pack is not kept in a run of its own: the next suite that needs it tries again, and says why.
  if (!run) packing.catch(() => (packing = undefined));
  return packing;
}

async function sharedPack(run: string): Promise<PackedPackage> {
  const folder = join(run, 'pack');
  const outcome = join(run, 'pack.json');
  try {
    mkdirSync(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return packedElsewhere(outcome);
  }
  const write = (value: object) => {
    writeFileSync(`${outcome}.part`, JSON.stringify(value));
    renameSync(`${outcome}.part`, outcome);
  };
  try {
    const packed = await packInto(folder);
    write({ packed });
    return packed;
  } catch (error) {
    write({ failed: error instanceof Error ? error.message : String(error) });
    throw error;
  }
}

/** What the worker that packs for the run wrote: the package, or why it could not make it. */
async function packedElsewhere(outcome: string): Promise<PackedPackage> {
  const written = JSON.parse(await whenWritten(outcome)) as { packed: PackedPackage } | { failed: string };
  if ('failed' in written) throw new Error(`npm pack failed in another worker of this run:\n${written.failed}`);
  return written.packed;
}

function ownFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'porter-pack-'));
  process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

async function packInto(folder: string): Promise<PackedPackage> {
  const packed = await succeed('npm', ['pack', '--json', '--pack-destination', folder], ROOT);
  const report = JSON.parse(packed.slice(packed.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
  return { tarball: join(folder, report[0]!.filename), files: report[0]!.files.map((file) => file.path) };
}

/** The contents of `file` once it exists (it is written whole, by a rename), seen through the folder's change events. */
function whenWritten(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const watcher = watch(join(file, '..'));
    const read = () => {
      if (!existsSync(file)) return;
      watcher.close();
      resolve(readFileSync(file, 'utf8'));
    };
    watcher.on('change', read);
    watcher.on('error', reject);
    read();
  });
}
