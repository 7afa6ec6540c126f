import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository's root: where the processes these helpers start run from. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A TypeScript script started as a process of its own (through tsx), waiting for a line it prints. */
export interface TsxProcess {
  readonly child: ChildProcess;
  /** What it wrote to stderr so far. */
  stderr(): string;
}

/**
 * Starts `script` under tsx (after `nodeArgs`) with `args`, and resolves with the first match of
 * `ready` in what it prints; rejects, with `exited` and its stderr, when it exits before that.
 */
export async function startTsx(options: {
  script: string;
  args: ReadonlyArray<string>;
  ready: RegExp;
  exited: string;
  env?: NodeJS.ProcessEnv;
  nodeArgs?: ReadonlyArray<string>;
}): Promise<TsxProcess & { match: RegExpExecArray }> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', options.script, ...options.args], {
    cwd: ROOT,
    ...(options.env ? { env: options.env } : {}),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const found = options.ready.exec(stdout);
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`${options.exited} (${code}):\n${stderr}`)));
  });
  return { child, match, stderr: () => stderr };
}
