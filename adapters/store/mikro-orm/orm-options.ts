import { Utils, type Options } from '@mikro-orm/core';
import type { AbstractSqlDriver } from '@mikro-orm/knex';
// Types only (erased from the output): the driver packages themselves are imported on demand below.
import type { LibSqlDriver } from '@mikro-orm/libsql';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { Logger } from '../../../ports/logger.js';
import { importDriver, importModule, type ModuleImporter } from '../missing-driver.js';
import { POSTGRESQL_KEEP_ALIVE } from '../../shared/postgresql-keep-alive.js';
import { redactUrls } from '../shared/redact-url.js';
import { FeedEntryRowSchema } from './feed-schema.js';
import { STORE_ENTITIES } from './record-schema.js';
import { prepareSqliteConnection, type SqliteConnection, type SqliteSetup } from './sqlite-connection.js';

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
  /** PostgreSQL: connections in the pool. At least 2. Default 10. */
  readonly poolSize?: number;
  /** PostgreSQL: how long to wait for a connection to be made or handed out. Default 5000. */
  readonly connectTimeoutMs?: number;
  /**
   * PostgreSQL: how long one statement may take, lock waits included. The server is told to cancel
   * it a little before (`statement_timeout`, see serverStatementTimeout); the client gives up at
   * this time when the server does not answer at all (suspended, or behind a network black hole).
   * Migrations lift both inside their own transaction. Default 5000.
   */
  readonly statementTimeoutMs?: number;
}

export const DEFAULT_STATEMENT_TIMEOUT_MS = 5_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

/**
 * The server's `statement_timeout` for a statement the client gives `statementTimeoutMs`: a
 * little less, so a statement that merely waited too long (a lock) is cancelled by the server,
 * which keeps its connection usable, before the client's own deadline, which has to throw the
 * connection away, fires.
 */
export function serverStatementTimeout(statementTimeoutMs: number): number {
  return statementTimeoutMs - Math.min(250, Math.floor(statementTimeoutMs / 10));
}

export const DEFAULT_BUSY_TIMEOUT_MS = 5_000;

/** The SQLite connection setup the tuning asks for. */
export function sqliteSetup(tuning: MikroOrmTuning): SqliteSetup {
  return { busyTimeoutMs: tuning.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS, synchronous: tuning.sqliteSynchronous ?? 'normal' };
}

/**
 * MikroORM configuration for the store. The driver package is imported here, only for the engine
 * the target names: the PostgreSQL driver is an optional peer dependency, so a host without it can
 * still open SQLite. A driver that is not installed fails with a MissingDriver naming the package.
 */
export async function ormOptions(
  target: MikroOrmTarget,
  tuning: MikroOrmTuning,
  logger: Logger | undefined,
  importer: ModuleImporter = importModule,
): Promise<Options<AbstractSqlDriver>> {
  const common = {
    // Feeds live in a table only on PostgreSQL; SQLite keeps them within the process.
    entities: target.engine === 'postgresql' ? [...STORE_ENTITIES, FeedEntryRowSchema] : STORE_ENTITIES,
    // Entities are given as an array: no folder scanning, no metadata cache written to disk.
    discovery: { disableDynamicFileAccess: true, requireEntitiesArray: true },
    // The migrations create the database's tables; the store never creates databases.
    ensureDatabase: false,
    debug: false,
    logger: (message: string) => logger?.info(redactUrls(message), { component: 'mikro-orm' }),
  } satisfies Options<AbstractSqlDriver>;

  if (target.engine === 'sqlite') {
    const libsql = await importDriver<{ LibSqlDriver: typeof LibSqlDriver }>(
      '@mikro-orm/libsql',
      `databaseUrl is a sqlite: URL but the SQLite driver is not installed: npm install @mikro-orm/libsql@${Utils.getORMVersion()}`,
      importer,
    );
    const setup = sqliteSetup(tuning);
    return {
      ...common,
      driver: libsql.LibSqlDriver,
      dbName: target.file,
      pool: {
        afterCreate: (connection: SqliteConnection, done: (error: Error | null) => void) =>
          void prepareSqliteConnection(connection, setup).then(() => done(null), done),
      },
    };
  }

  const postgresql = await importDriver<{ PostgreSqlDriver: typeof PostgreSqlDriver }>(
    '@mikro-orm/postgresql',
    `databaseUrl is a postgres:// URL but the PostgreSQL driver is not installed: npm install @mikro-orm/postgresql@${Utils.getORMVersion()}`,
    importer,
  );
  const connectTimeoutMs = tuning.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const statementTimeoutMs = tuning.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  return {
    ...common,
    driver: postgresql.PostgreSqlDriver,
    clientUrl: target.url,
    pool: { min: 0, max: Math.max(2, tuning.poolSize ?? 10) },
    driverOptions: {
      log: knexLog(logger),
      acquireConnectionTimeout: connectTimeoutMs,
      ...searchPath(target.url),
      // pg reads the whole URL, so query options such as sslmode apply too.
      connection: {
        connectionString: target.url,
        connectionTimeoutMillis: connectTimeoutMs,
        statement_timeout: serverStatementTimeout(statementTimeoutMs),
        // A server that stops answering enforces no statement_timeout: pg's own deadline does.
        query_timeout: statementTimeoutMs,
        ...POSTGRESQL_KEEP_ALIVE,
      },
    },
  };
}

/**
 * knex's own messages go to the host's logger rather than the console: chiefly its pool's warning
 * as it drops a connection the server closed or that the store gave up on.
 */
function knexLog(logger: Logger | undefined): Record<'warn' | 'error' | 'deprecate' | 'debug', (message: unknown) => void> {
  const at = (level: 'warn' | 'error') => (message: unknown) => logger?.[level](redactUrls(String(message)), { component: 'knex' });
  return { warn: at('warn'), error: at('error'), deprecate: at('warn'), debug: () => undefined };
}

/** The schema a PostgreSQL URL names with `?schema=`, if any. */
export function urlSchema(url: string): string | null {
  return new URL(url).searchParams.get('schema') || null;
}

/**
 * MikroORM reads `?schema=` from the URL for its own queries; the search path makes the store's
 * unqualified SQL (migrations, bookkeeping and statements) land in that same schema.
 */
function searchPath(url: string): { searchPath?: string[] } {
  const schema = urlSchema(url);
  return schema ? { searchPath: [schema] } : {};
}
