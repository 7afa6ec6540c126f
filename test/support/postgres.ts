import pg from 'pg';
import { randomBytes } from 'node:crypto';

/**
 * PostgreSQL for tests: `PORTER_TEST_PG_URL` when set (the CI machines run PostgreSQL locally),
 * else a testcontainers PostgreSQL when a Docker engine answers. In CI a missing database fails
 * the run; elsewhere the PostgreSQL tests are skipped with a message.
 */
let containerUrl: Promise<string | null> | null = null;

export async function postgresServerUrl(): Promise<string | null> {
  if (process.env.PORTER_TEST_PG_URL) return process.env.PORTER_TEST_PG_URL;
  containerUrl ??= startContainer();
  const url = await containerUrl;
  if (!url && process.env.CI) {
    throw new Error('CI needs PostgreSQL: set PORTER_TEST_PG_URL (.ci/run does) or run a Docker engine');
  }
  return url;
}

async function startContainer(): Promise<string | null> {
  try {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const container = await new PostgreSqlContainer('postgres:16-alpine').start();
    process.once('exit', () => void container.stop());
    return container.getConnectionUri();
  } catch {
    return null;
  }
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
        for (let waited = 0; waited < 5_000; waited += 100) {
          const open = await client.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
          if (open.rows[0].n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
