import pg from 'pg';
import { randomBytes } from 'node:crypto';

/** The PostgreSQL server benches use: PORTER_BENCH_PG_URL, else PORTER_TEST_PG_URL, else the local default. */
export function benchPostgresUrl(): string {
  return process.env.PORTER_BENCH_PG_URL ?? process.env.PORTER_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

export interface BenchDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/** A fresh database of the bench's own on the server, dropped by `drop()`. */
export async function createBenchDatabase(serverUrl: string): Promise<BenchDatabase> {
  const name = `porter_bench_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(serverUrl, `drop database if exists ${name} with (force)`) };
}

async function onServer(serverUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** The bench's own database, or null (with one warning naming the bench) when no server answers. */
export async function benchDatabaseOrSkip(bench: string): Promise<BenchDatabase | null> {
  try {
    return await createBenchDatabase(benchPostgresUrl());
  } catch (error) {
    console.warn(`${bench} bench: PostgreSQL skipped, no server at PORTER_BENCH_PG_URL/PORTER_TEST_PG_URL (${(error as Error).message})`);
    return null;
  }
}
