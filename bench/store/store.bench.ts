import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroOrmStore } from '../../adapters/store/mikro-orm/mikro-orm-store.js';
import type { MikroOrmTarget } from '../../adapters/store/mikro-orm/orm-options.js';
import { recordStatements } from '../../adapters/store/mikro-orm/record-statements.js';
import { dialectFor } from '../../adapters/store/mikro-orm/sql-dialect.js';
import { compare, type BenchResult } from '../support/harness.js';
import { benchDatabaseOrSkip } from '../support/postgres-database.js';
import type { RawDriver } from './raw-driver.js';
import { openRawPostgresql } from './raw-postgresql.js';
import { openRawSqlite } from './raw-sqlite.js';
import { comparisons, seed } from './store-workload.js';

const wallClock = { now: () => new Date() };

/**
 * The MikroORM store against the raw drivers running the same statements on the same schema:
 * get-by-id, put with two refs, list-by-ref and claim, on a SQLite file and on PostgreSQL.
 */
export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const folder = await mkdtemp(join(tmpdir(), 'porter-bench-'));
  try {
    const file = join(folder, 'bench.db');
    results.push(...(await runEngine({ engine: 'sqlite', file }, () => openRawSqlite(file))));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }

  const database = await benchDatabaseOrSkip('store');
  if (!database) return results;
  try {
    const url = database.url;
    results.push(...(await runEngine({ engine: 'postgresql', url }, () => openRawPostgresql(url))));
  } finally {
    await database.drop();
  }
  return results;
}

async function runEngine(target: MikroOrmTarget, openRaw: () => Promise<RawDriver>): Promise<BenchResult[]> {
  // The store migrates the empty database; the raw driver then works on that same schema.
  const store = await MikroOrmStore.open({ target, clock: wallClock });
  const raw = await openRaw();
  try {
    const statements = recordStatements(dialectFor(target.engine));
    await seed(raw, statements, Date.now());
    const results: BenchResult[] = [];
    for (const comparison of await comparisons(target.engine, store, raw, statements)) results.push(await compare(comparison));
    return results;
  } finally {
    await raw.close();
    await store.close();
  }
}
