import type { SqlStatement } from '../../adapters/store/mikro-orm/sql-statement.js';

/**
 * The anchor: the store's own statements run straight through a driver on one dedicated connection,
 * each prepared once, rows returned as the driver gives them (no pool, no mapping).
 */
export interface RawDriver {
  readonly name: string;
  rows(statement: SqlStatement): Promise<unknown[]>;
  /** Runs the statements in one transaction (seeding). */
  batch(statements: readonly SqlStatement[]): Promise<void>;
  close(): Promise<void>;
}
