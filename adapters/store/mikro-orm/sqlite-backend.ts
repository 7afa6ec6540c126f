import type { Clock } from '../../../ports/clock.js';
import { MemoryFeeds } from '../memory/memory-feeds.js';
import { SQLITE_MIGRATIONS } from './migrations/sqlite/migration-list.js';
import { prepareSqliteConnection, type SqliteConnection, type SqliteSetup } from './sqlite-connection.js';
import { sqliteMigrationLedger } from './sqlite-migration-ledger.js';
import { SqliteRunner } from './sqlite-runner.js';
import { driverPool, soleConnection, type DriverPool, type KnexClientLike } from './sql-runner.js';
import type { StoreBackend } from './store-backend.js';

/**
 * SQLite through libsql. A file gets one connection of the store's own, set up like the pool's and
 * kept until close: knex recycles a pooled libsql file connection every ten seconds, which would
 * throw away the prepared statements each time (and libsql releases a connection's file handles
 * only once its statements are garbage-collected). An in-memory database exists only on the
 * pool's single connection, so that one is borrowed per statement. Feeds stay within the process.
 */
export async function openSqliteBackend(client: KnexClientLike, file: string, setup: SqliteSetup, clock: Clock): Promise<StoreBackend> {
  let pool: DriverPool<SqliteConnection>;
  let release = async () => undefined as unknown;
  if (file === ':memory:') {
    pool = driverPool<SqliteConnection>(client);
  } else {
    const connection = (await client.acquireRawConnection()) as SqliteConnection;
    try {
      await prepareSqliteConnection(connection, setup);
    } catch (error) {
      await client.destroyRawConnection(connection);
      throw error;
    }
    pool = soleConnection(connection);
    release = () => client.destroyRawConnection(connection);
  }
  const runner = new SqliteRunner(pool, setup.busyTimeoutMs);
  // Turns are read on the instance running them: SQLite's feeds stay in the process.
  const feeds = new MemoryFeeds(clock);
  return {
    feeds: (namespace) => feeds.feeds(namespace),
    runner,
    ledger: sqliteMigrationLedger(pool, setup.busyTimeoutMs),
    migrations: SQLITE_MIGRATIONS,
    async close() {
      await runner.close();
      await release();
    },
  };
}
