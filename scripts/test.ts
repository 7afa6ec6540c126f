/**
 * `npm test`: the typecheck and the lint (`npm run checks`) at the same time as every test file
 * but the install tests, in one mocha `--parallel` run of `PORTER_TEST_JOBS` worker processes
 * (default 3 on a 2-core machine: most tests wait on sockets, child processes and databases, not on
 * the CPU, so the checks fit beside them; four workers each driving Chromium, sandboxes and hosts
 * kept the load near 13 and let browser waits run out). The checks' output is printed whole when
 * they end; the run fails when either fails. `npm run test:only` is the tests without the checks.
 *
 * `npm run test:install` (`--install`): the install tests alone, which pack Porter and install it
 * from the registry's packages into the example hosts and a fresh `create-next-app` (`INSTALL`):
 * minutes of npm and `next build` that need the registry. `.ci/run` runs them after `npm test`.
 *
 * A worker runs one file at a time; files share no port, database (`test/support/postgres.ts`
 * makes one per test), folder or variable, and the one thing two suites build in the checkout, the
 * packed package, is made once per run for all workers (`test/support/packed-package.ts`). The
 * files that take longest start first (`LONGEST`), so the run does not end waiting on one of them;
 * the rest follow by name.
 *
 * `npx mocha <file>` still runs one file alone (`.mocharc.yml`); other arguments (e.g. `--grep x`)
 * are passed to mocha.
 */
import { spawn } from 'node:child_process';
import { globSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { npmRunKept, reportOf } from './npm-run-kept.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MOCHA = fileURLToPath(new URL('../node_modules/mocha/bin/mocha.js', import.meta.url));

/** The install tests (`npm run test:install`), not part of `npm test`. */
const INSTALL = ['test/e2e/package.test.ts', 'test/e2e/nextjs-quickstart.test.ts'];

/** The longest files of `npm test`, longest first (`PORTER_TEST_WALL_TIMES`, below, measures them). */
const LONGEST = [
  'test/e2e/slot-after-close-postgres.test.ts',
  'test/e2e/chrome.test.ts',
  'test/e2e/schedule-spread-postgres.test.ts',
  'test/adapters/sandbox/local-attacks.test.ts',
  'test/e2e/turns-finish.test.ts',
  'test/e2e/turns-anywhere.test.ts',
  'test/e2e/turns-interrupted.test.ts',
  'test/e2e/cli.test.ts',
  'test/e2e/chrome-accessibility.test.ts',
  'test/adapters/sandbox/local-sandbox.test.ts',
  'test/e2e/chrome-runs.test.ts',
  'test/e2e/cli-serve-config.test.ts',
  'test/e2e/chrome-truth.test.ts',
  'test/e2e/usage-limits-postgres.test.ts',
  'test/e2e/chrome-served-updates.test.ts',
  'test/e2e/chrome-automations.test.ts',
  'test/e2e/door-tasks.test.ts',
  'test/e2e/chrome-titles.test.ts',
  'test/e2e/chrome-keyboard.test.ts',
  'test/application/deletions/deferred-deletion.test.ts',
  'test/e2e/hostile-sweep.test.ts',
  'test/e2e/chrome-conversation.test.ts',
  'test/e2e/chrome-pages.test.ts',
  'test/e2e/runs-survive-instances-postgres.test.ts',
  'test/adapters/sandbox/e2b-sandbox.test.ts',
  'test/e2e/chrome-served-app.test.ts',
  'test/application/guard/execution-crash.test.ts',
  'test/e2e/door-client-documents.test.ts',
  'test/e2e/chrome-undo.test.ts',
  'test/adapters/store/postgres-black-hole.test.ts',
];

const flags = new Set(['--install', '--checks']);
const install = process.argv.includes('--install');
const withChecks = process.argv.includes('--checks');
const mochaArgs = process.argv.slice(2).filter((arg) => !flags.has(arg));

const all = globSync('test/**/*.test.ts', { cwd: ROOT }).sort();
for (const file of [...INSTALL, ...LONGEST])
  if (!all.includes(file)) throw new Error(`scripts/test.ts names ${file}, which is not a test file`);
const files = install ? INSTALL : [...LONGEST, ...all.filter((file) => !LONGEST.includes(file) && !INSTALL.includes(file))];
const jobs = process.env.PORTER_TEST_JOBS ?? '3';

// PORTER_TEST_WALL_TIMES=<file>: one line per test file with its wall and CPU times (test/support/file-wall-times.ts).
const timings = process.env.PORTER_TEST_WALL_TIMES ? ['--require', 'test/support/file-wall-times.ts'] : [];

const started = Date.now();
const checks = withChecks ? npmRunKept('checks', ROOT) : null;
const tests = new Promise<number>((resolve) => {
  const child = spawn(process.execPath, [MOCHA, '--parallel', '--jobs', jobs, ...timings, ...mochaArgs, ...files], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  child.on('close', (code, signal) => {
    console.log(`${files.length} test files in ${seconds(started)} s on ${jobs} workers`);
    resolve(code ?? (signal ? 1 : 0));
  });
});
const [testsCode, checked] = await Promise.all([tests, checks]);
if (checked) process.stdout.write(reportOf(checked));
process.exit(testsCode !== 0 ? testsCode : (checked?.code ?? 0));

function seconds(since: number): number {
  return Math.round((Date.now() - since) / 1000);
}
