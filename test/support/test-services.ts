import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * The servers the tests need, found once per mocha run (its global setup, registered in
 * `.mocharc.yml`), so no one has to name them:
 *
 * - PostgreSQL: `PORTER_TEST_PG_URL` when set; else the local server on 127.0.0.1:5432 when it
 *   answers; else a testcontainers PostgreSQL when a Docker engine answers.
 * - Chromium: `PORTER_CHROMIUM` when set; else `chromium` on the PATH.
 *
 * What is found is written back to those variables, so every suite (`test/support/postgres.ts`,
 * `test/support/browser.ts`) and every child process a test spawns reads the same answer. What is
 * missing is printed once, plainly, and its suites skip. Under `CI` nothing is skipped: a missing
 * server fails the run. `npm run test:core` (`PORTER_TEST_CORE=1`) looks for neither: its
 * PostgreSQL cases skip, because the loop must not wait on a server.
 *
 * It also makes the run's own folder, `PORTER_TEST_RUN_DIR`, for what the worker processes of a
 * parallel run share (the packed package, `test/support/packed-package.ts`), removed at the end.
 * Mocha runs this setup once, in its main process, before it starts a worker, so every worker and
 * every child process a test spawns reads the same variables.
 */
export const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';

let stopContainer: (() => Promise<unknown>) | null = null;
let runFolder: string | null = null;

export async function mochaGlobalSetup(): Promise<void> {
  if (!process.env.PORTER_TEST_RUN_DIR) process.env.PORTER_TEST_RUN_DIR = runFolder = mkdtempSync(join(tmpdir(), 'porter-test-run-'));
  if (process.env.PORTER_TEST_CORE) {
    delete process.env.PORTER_TEST_PG_URL;
    delete process.env.PORTER_CHROMIUM;
    console.log('test:core: PostgreSQL cases skipped and execution-crash (kills processes) left out; `npm test` runs them');
    return;
  }
  const missing: string[] = [];
  const postgres = await findPostgres();
  if (postgres.url) process.env.PORTER_TEST_PG_URL = postgres.url;
  else missing.push(`PostgreSQL suites skipped: ${postgres.why}`);
  const chromium = findChromium();
  if (chromium.path) process.env.PORTER_CHROMIUM = chromium.path;
  else {
    delete process.env.PORTER_CHROMIUM; // a path that does not exist: its suites skip, not fail
    missing.push(`Chromium suites skipped: ${chromium.why}`);
  }
  if (!missing.length) return;
  if (process.env.CI) throw new Error(`CI skips nothing: ${missing.join('; ').replaceAll(' suites skipped', ' missing')}`);
  for (const line of missing) console.log(line);
}

export async function mochaGlobalTeardown(): Promise<void> {
  if (runFolder) rmSync(runFolder, { recursive: true, force: true });
  await stopContainer?.();
}

async function findPostgres(): Promise<{ url: string; why?: never } | { url?: never; why: string }> {
  const named = process.env.PORTER_TEST_PG_URL;
  if (named) return { url: named };
  if (await answers(LOCAL_POSTGRES)) return { url: LOCAL_POSTGRES };
  const container = await startContainer();
  if (typeof container !== 'string') return { why: `PORTER_TEST_PG_URL unset, nothing answers on 127.0.0.1:5432, and ${container.why}` };
  return { url: container };
}

/** A quick connect: a server that is not there must not hold up the run. */
async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function startContainer(): Promise<string | { why: string }> {
  // Loaded only here: a machine with a local server never pays for testcontainers.
  const modules = await Promise.all([import('testcontainers'), import('@testcontainers/postgresql')]).catch(() => null);
  if (!modules) return { why: 'testcontainers is not installed' };
  const [{ getContainerRuntimeClient }, { PostgreSqlContainer }] = modules;
  try {
    await getContainerRuntimeClient();
  } catch {
    return { why: 'no Docker engine answers (testcontainers)' };
  }
  console.log('PostgreSQL: starting a testcontainers postgres:16-alpine (nothing answers on 127.0.0.1:5432)');
  const container = await new PostgreSqlContainer('postgres:16-alpine').start();
  stopContainer = () => container.stop();
  return container.getConnectionUri();
}

function findChromium(): { path: string; why?: never } | { path?: never; why: string } {
  const named = process.env.PORTER_CHROMIUM;
  if (named) return existsSync(named) ? { path: named } : { why: `PORTER_CHROMIUM=${named} does not exist` };
  try {
    const path = execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
    if (path) return { path };
  } catch {
    // not on the PATH
  }
  return { why: 'PORTER_CHROMIUM unset and no `chromium` on the PATH (apt-get install -y chromium)' };
}
