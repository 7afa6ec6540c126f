import pg from 'pg';
import { randomBytes } from 'node:crypto';
import type { DriverPool } from '../../adapters/store/mikro-orm/sql-runner.js';
import { eventually } from './eventually.js';

/**
 * The PostgreSQL server for tests, or null when the run has none (its cases skip). Found once per
 * run by `test/support/test-services.ts` (mocha's global setup): `PORTER_TEST_PG_URL`, else the
 * local server, else testcontainers; in CI a missing server has already failed the run.
 */
export async function postgresServerUrl(): Promise<string | null> {
  return process.env.PORTER_TEST_PG_URL || null;
}

export interface TestDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database on the test server, dropped by `drop()`. */
export async function createTestDatabase(serverUrl: string): Promise<TestDatabase> {
  const name = `porter_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        // Pools closing in the background (pg-boss, the store) still hold connections for a
        // moment; forcing them shut makes their clients emit errors into whatever test runs next.
        // After five seconds it is dropped anyway (FORCE).
        await eventually(
          async () => (await client.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name])).rows[0].n === 0,
          5_000,
        );
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * A fresh database for each test of the calling suite, dropped after it; the suite skips when the
 * run has no PostgreSQL server. The function returned gives the running test's database.
 */
export function databasePerTest(): () => TestDatabase {
  let server: string | null = null;
  let database: TestDatabase | null = null;
  before(async function () {
    server = await postgresServerUrl();
    if (!server) return this.skip();
  });
  beforeEach(async () => {
    database = await createTestDatabase(server!);
  });
  afterEach(async () => {
    await database?.drop();
    database = null;
  });
  return () => database!;
}

/** A pg pool lent the way MikroORM's is, for a store runner of a test's own. */
export function driverPoolOf(pool: pg.Pool): DriverPool<pg.ClientBase> {
  return {
    acquire: () => pool.connect(),
    // What it lends are the pool's own clients.
    release: async (client) => (client as pg.PoolClient).release(),
    discard: async (client) => (client as pg.PoolClient).release(true),
  };
}
