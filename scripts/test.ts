/**
 * `npm run test:only` (the last step of `npm test`): every test file in one mocha `--parallel`
 * run of `PORTER_TEST_JOBS` worker processes (default 3 on a 2-core machine: most tests wait on
 * sockets, child processes and databases, not on the CPU, but four workers each driving Chromium,
 * sandboxes and hosts kept the load near 13 and let browser waits run out). A worker runs one file at a time; files share no port,
 * database (`test/support/postgres.ts` makes one per test), folder or variable, and the one thing
 * two suites build in the checkout, the packed package, is made once per run for all workers
 * (`test/support/packed-package.ts`). The files that take longest start first (`LONGEST`), so the
 * run does not end waiting on one of them; the rest follow by name.
 *
 * `npx mocha <file>` still runs one file alone (`.mocharc.yml`); arguments (e.g. `--grep x`) are
 * passed to mocha.
 */
import { spawn } from 'node:child_process';
import { globSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MOCHA = fileURLToPath(new URL('../node_modules/mocha/bin/mocha.js', import.meta.url));

/** The longest files, longest first (per-file times of a whole run; `test/support/file-timings.cjs` measures them). */
const LONGEST = [
  'test/e2e/package.test.ts',
  'test/e2e/nextjs-quickstart.test.ts',
  'test/e2e/cli-serve-config.test.ts',
  'test/adapters/sandbox/local-attacks.test.ts',
  'test/e2e/cli.test.ts',
  'test/e2e/turns-anywhere.test.ts',
  'test/e2e/turns-finish.test.ts',
  'test/e2e/hostile-sweep.test.ts',
  'test/e2e/schedule-spread-postgres.test.ts',
  'test/e2e/usage-limits-postgres.test.ts',
  'test/e2e/door-sessions-anywhere.test.ts',
  'test/e2e/served-app-changes.test.ts',
  'test/e2e/door-tasks.test.ts',
  'test/adapters/sandbox/local-sandbox.test.ts',
  'test/e2e/door-stateless.test.ts',
  'test/e2e/npm-start-production.test.ts',
  'test/e2e/chrome-accessibility.test.ts',
  'test/e2e/chrome.test.ts',
  'test/e2e/chrome-runs.test.ts',
  'test/e2e/chrome-truth.test.ts',
  'test/e2e/chrome-keyboard.test.ts',
  'test/e2e/runs-survive-instances-postgres.test.ts',
  'test/e2e/body-limits.test.ts',
  'test/application/runs/reliable-runs.test.ts',
  'test/e2e/chrome-pages.test.ts',
  'test/adapters/sandbox/e2b-sandbox.test.ts',
];

const all = globSync('test/**/*.test.ts', { cwd: ROOT }).sort();
for (const file of LONGEST) if (!all.includes(file)) throw new Error(`scripts/test.ts names ${file}, which is not a test file`);
const files = [...LONGEST, ...all.filter((file) => !LONGEST.includes(file))];
const jobs = process.env.PORTER_TEST_JOBS ?? '3';

// PORTER_TEST_WALL_TIMES=<file>: one line per test file with its wall time (test/support/file-wall-times.ts).
const timings = process.env.PORTER_TEST_WALL_TIMES ? ['--require', 'test/support/file-wall-times.ts'] : [];

const started = Date.now();
const child = spawn(process.execPath, [MOCHA, '--parallel', '--jobs', jobs, ...timings, ...process.argv.slice(2), ...files], {
  cwd: ROOT,
  stdio: 'inherit',
});
child.on('close', (code, signal) => {
  console.log(`${files.length} test files in ${Math.round((Date.now() - started) / 1000)} s on ${jobs} workers`);
  process.exit(code ?? (signal ? 1 : 0));
});
