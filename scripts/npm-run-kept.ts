import { spawn } from 'node:child_process';

/** How an npm script ended, with everything it printed. */
export interface KeptRun {
  readonly script: string;
  readonly code: number;
  readonly output: string;
  readonly seconds: number;
}

/** Runs `npm run <script>` with its output kept, to be printed whole when the caller chooses. */
export function npmRunKept(script: string, cwd?: string): Promise<KeptRun> {
  const started = Date.now();
  const ended = (code: number, output: string): KeptRun => ({ script, code, output, seconds: Math.round((Date.now() - started) / 1000) });
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => resolve(ended(1, `${output}${String(error)}\n`)));
    child.on('close', (code) => resolve(ended(code ?? 1, output)));
  });
}

/** The run as `npm test` prints it: a heading with the outcome and time, then its output. */
export function reportOf(run: KeptRun): string {
  return `\n== npm run ${run.script}: ${run.code === 0 ? 'passed' : `failed (${run.code})`} in ${run.seconds} s\n${run.output}`;
}
