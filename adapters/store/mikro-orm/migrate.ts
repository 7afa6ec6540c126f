import type { MikroORM } from '@mikro-orm/core';
import type { AbstractSqlDriver, SqlEntityManager } from '@mikro-orm/knex';
import { Migrator } from '@mikro-orm/migrations';
import type { SqlEngine } from './sql-dialect.js';

/**
 * A fixed key for pg_advisory_xact_lock, the same in every Porter instance ("porter" in ASCII), so
 * instances booting together against one PostgreSQL database migrate one after another.
 */
export const MIGRATION_LOCK_KEY = 0x706f72746572;

/** How often a SQLite migration is retried when another process is migrating the same file. */
const SQLITE_ATTEMPTS = 20;

/** Applies every pending checked-in migration; answers the names applied (none when up to date). */
export async function migrate(orm: MikroORM<AbstractSqlDriver>, engine: SqlEngine): Promise<string[]> {
  const migrator = new Migrator(orm.em as SqlEntityManager);
  const up = async () => (await migrator.up()).map((migration) => migration.name);
  return engine === 'postgresql' ? underAdvisoryLock(orm, up) : retriedWhileContended(up);
}

/**
 * Holds the lock in a transaction of its own while the migrator works on other pooled connections:
 * the migrator checks and creates its bookkeeping table outside any transaction, so the lock has
 * to cover the whole run, not only the migration transaction. A later instance waits, then finds
 * nothing pending.
 */
async function underAdvisoryLock<T>(orm: MikroORM<AbstractSqlDriver>, work: () => Promise<T>): Promise<T> {
  const connection = orm.em.getConnection();
  return connection.transactional(async (lock) => {
    await connection.execute(`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`, [], 'all', lock);
    return work();
  });
}

/**
 * SQLite has no advisory lock. Two processes migrating one file collide either on the bookkeeping
 * table (created outside the transaction) or on the write lock (a transaction whose snapshot went
 * stale cannot take it, whatever the busy timeout): the loser retries and then finds nothing pending.
 */
async function retriedWhileContended<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= SQLITE_ATTEMPTS || !isContention(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 * attempt));
    }
  }
}

function isContention(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || /already exists|SQLITE_BUSY/i.test(error.message);
}
