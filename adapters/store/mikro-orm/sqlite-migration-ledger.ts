import { MIGRATIONS_TABLE } from './record-schema.js';
import type { LedgerTransaction, MigrationLedger } from './migrate.js';
import { whileLocked, type SqliteConnection } from './sqlite-connection.js';
import type { DriverPool } from './sql-runner.js';

/** The bookkeeping table exactly as MikroORM's Migrator created it on SQLite. */
const CREATE_LEDGER =
  `create table if not exists \`${MIGRATIONS_TABLE}\` (\`id\` integer not null primary key autoincrement, ` +
  '`name` varchar(255), `executed_at` datetime default CURRENT_TIMESTAMP)';

/**
 * SQLite has no advisory lock: the migration lock is the database's write lock, taken when the
 * transaction begins (`begin immediate`), so a second process waits there and then re-reads what
 * is applied. The wait happens on timers, for up to `lockWaitMs`.
 */
export function sqliteMigrationLedger(pool: DriverPool<SqliteConnection>, lockWaitMs: number): MigrationLedger {
  return {
    async inLockedTransaction(step) {
      const connection = await pool.acquire();
      try {
        await whileLocked(() => connection.exec('begin immediate'), lockWaitMs);
        try {
          connection.exec(CREATE_LEDGER);
          const result = await step(ledgerTransaction(connection));
          connection.exec('commit');
          return result;
        } catch (error) {
          if (connection.inTransaction) connection.exec('rollback');
          throw error;
        }
      } finally {
        await pool.release(connection);
      }
    },
  };
}

function ledgerTransaction(connection: SqliteConnection): LedgerTransaction {
  return {
    applied: async () =>
      new Set((connection.prepare(`select name from \`${MIGRATIONS_TABLE}\``).all([]) as Array<{ name: string }>).map((row) => row.name)),
    execute: async (sql) => connection.exec(sql),
    record: async (name) => void connection.prepare(`insert into \`${MIGRATIONS_TABLE}\` (\`name\`) values (?)`).run([name]),
  };
}
