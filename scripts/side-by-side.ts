/**
 * `tsx scripts/side-by-side.ts typecheck lint`: runs those npm scripts at the same time (each is
 * one process, so two use both cores of a small machine), prints each one's output whole when it
 * ends, with how long it took, and fails when any of them failed. `npm test` runs its checks so.
 */
import { spawn } from 'node:child_process';

function npmRun(script: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const took = Math.round((Date.now() - started) / 1000);
      process.stdout.write(`\n== npm run ${script}: ${code === 0 ? 'passed' : `failed (${code})`} in ${took} s\n${output}`);
      resolve(code === 0);
    });
  });
}

const passed = await Promise.all(process.argv.slice(2).map(npmRun));
process.exit(passed.every(Boolean) ? 0 : 1);
