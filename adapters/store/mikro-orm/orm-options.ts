import type { Options } from '@mikro-orm/core';
import type { AbstractSqlDriver } from '@mikro-orm/knex';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { SqliteDriver } from '@mikro-orm/sqlite';
import type { Database } from 'sqlite3';
import type { Logger } from '../../../ports/logger.js';
import { POSTGRESQL_MIGRATIONS } from './migrations/postgresql/migration-list.js';
import { SQLITE_MIGRATIONS } from './migrations/sqlite/migration-list.js';
import { MIGRATIONS_TABLE, STORE_ENTITIES } from './record-schema.js';
import type { SqlEngine } from './sql-dialect.js';
import { redactUrls } from '../shared/redact-url.js';

/** Where the MikroORM store keeps its data. */
export type MikroOrmTarget =
  | { readonly engine: 'sqlite'; /** A file path, or ':memory:'. */ readonly file: string }
  | { readonly engine: 'postgresql'; readonly url: string };

/** Tuning with defaults that suit both a laptop and a small server. */
export interface MikroOrmTuning {
  /** SQLite: how long a statement waits for another process's write lock. Default 5000. */
  readonly busyTimeoutMs?: number;
  /**
   * SQLite: `normal` (default) syncs the WAL at checkpoints, not at every commit — a crash of the
   * process loses nothing and the file never corrupts, but a power loss may drop the last commits.
   * `full` syncs every commit (each write then waits for the disk).
   */
  readonly sqliteSynchronous?: 'normal' | 'full';
  /** PostgreSQL: connections in the pool. At least 2 (migrations hold one for the lock). Default 10. */
  readonly poolSize?: number;
  /** PostgreSQL: how long to wait for a connection to be made or handed out. Default 10000. */
  readonly connectTimeoutMs?: number;
}

export const DEFAULT_BUSY_TIMEOUT_MS = 5_000;

/** MikroORM configuration for the store. */
export function ormOptions(target: MikroOrmTarget, tuning: MikroOrmTuning, logger: Logger | undefined): Options<AbstractSqlDriver> {
  const common = {
    entities: STORE_ENTITIES,
    // Entities are given as an array: no folder scanning, no metadata cache written to disk.
    discovery: { disableDynamicFileAccess: true, requireEntitiesArray: true },
    // The migrations create the database's tables; the store never creates databases.
    ensureDatabase: false,
    debug: false,
    logger: (message: string) => logger?.info(redactUrls(message), { component: 'mikro-orm' }),
    migrations: migrationOptions(target.engine),
  } satisfies Options<AbstractSqlDriver>;

  if (target.engine === 'sqlite') {
    const busyTimeoutMs = tuning.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    return {
      ...common,
      driver: SqliteDriver,
      dbName: target.file,
      pool: { afterCreate: (connection: Database, done: (error: Error | null) => void) => prepareSqliteConnection(connection, busyTimeoutMs, tuning.sqliteSynchronous ?? 'normal', done) },
    };
  }

  const connectTimeoutMs = tuning.connectTimeoutMs ?? 10_000;
  // MikroORM reads `?schema=` from the URL for its own tables; the search path makes the store's
  // unqualified SQL (migrations and statements) land in that same schema.
  const schema = new URL(target.url).searchParams.get('schema');
  return {
    ...common,
    driver: PostgreSqlDriver,
    clientUrl: target.url,
    pool: { min: 0, max: Math.max(2, tuning.poolSize ?? 10) },
    driverOptions: {
      acquireConnectionTimeout: connectTimeoutMs,
      ...(schema ? { searchPath: [schema] } : {}),
      // pg reads the whole URL, so query options such as sslmode apply too.
      connection: { connectionString: target.url, connectionTimeoutMillis: connectTimeoutMs },
    },
  };
}

/**
 * Every SQLite connection: WAL so readers never block the writer, synchronous as tuned (normal by
 * default: WAL's recommended pairing), foreign keys on (refs cascade with their record), and a busy timeout so a second process on the same file waits for the lock.
 * Switching a new file to WAL needs the file to itself, and SQLite can answer SQLITE_BUSY there
 * without waiting, when other processes open the same new file at that moment: that is retried
 * for as long as the busy timeout.
 */
function prepareSqliteConnection(connection: Database, busyTimeoutMs: number, synchronous: 'normal' | 'full', done: (error: Error | null) => void): void {
  connection.configure('busyTimeout', busyTimeoutMs);
  const giveUpAt = Date.now() + busyTimeoutMs;
  const attempt = () =>
    connection.exec(`pragma journal_mode = wal; pragma synchronous = ${synchronous}; pragma foreign_keys = on;`, (error: Error | null) => {
      if (error && (error as { code?: string }).code === 'SQLITE_BUSY' && Date.now() < giveUpAt) setTimeout(attempt, 20);
      else done(error);
    });
  attempt();
}

function migrationOptions(engine: SqlEngine) {
  return {
    tableName: MIGRATIONS_TABLE,
    // Checked-in classes, not a folder glob: nothing is looked up on disk at runtime.
    migrationsList: engine === 'sqlite' ? SQLITE_MIGRATIONS : POSTGRESQL_MIGRATIONS,
    transactional: true,
    allOrNothing: true,
    // MikroORM's default would switch PostgreSQL to replica mode, which needs a superuser.
    disableForeignKeys: false,
    snapshot: false,
    silent: true,
  };
}
