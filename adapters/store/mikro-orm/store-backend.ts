import type { MigrationLedger } from './migrate.js';
import type { SqlMigration } from './migrations/sql-migration.js';
import type { SqlRunner } from './sql-runner.js';

/** What one engine gives the store once MikroORM is connected. */
export interface StoreBackend {
  readonly runner: SqlRunner;
  readonly ledger: MigrationLedger;
  readonly migrations: readonly SqlMigration[];
  /** Releases the runner and whatever connections the backend opened besides MikroORM's pool. */
  close(): Promise<void>;
}
