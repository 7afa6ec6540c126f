import type { FeedSet } from '../../../ports/feeds.js';
import type { InstanceLiveness } from '../../../ports/liveness.js';
import type { MigrationLedger } from './migrate.js';
import type { SqlMigration } from './migrations/sql-migration.js';
import type { SqlRunner } from './sql-runner.js';

/** What one engine gives the store once MikroORM is connected. */
export interface StoreBackend {
  readonly runner: SqlRunner;
  readonly ledger: MigrationLedger;
  readonly migrations: readonly SqlMigration[];
  /** The engine's feeds: a table and LISTEN/NOTIFY on PostgreSQL, this process on SQLite. */
  feeds<T>(namespace: string): FeedSet<T>;
  /** The instance's liveness mark: a session advisory lock on PostgreSQL; none on SQLite. */
  liveness?(): InstanceLiveness;
  /** Releases the runner and whatever connections the backend opened besides MikroORM's pool. */
  close(): Promise<void>;
}
