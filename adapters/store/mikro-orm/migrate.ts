import type { SqlMigration } from './migrations/sql-migration.js';

/**
 * One engine's bookkeeping of applied migrations (the porter_migrations table, as MikroORM's
 * Migrator kept it, so databases it migrated are recognised) and its migration lock.
 */
export interface MigrationLedger {
  /**
   * Runs `step` in one transaction that holds the engine's migration lock, the bookkeeping table
   * created first when missing; commits when `step` resolves, rolls back when it throws.
   */
  inLockedTransaction<T>(step: (transaction: LedgerTransaction) => Promise<T>): Promise<T>;
}

export interface LedgerTransaction {
  /** The names recorded as applied. */
  applied(): Promise<ReadonlySet<string>>;
  execute(sql: string): Promise<void>;
  /** Records a migration as applied. */
  record(name: string): Promise<void>;
}

/**
 * Applies every pending migration in list order, each in a transaction of its own that holds the
 * migration lock and re-reads what is applied: instances booting together take turns, and the
 * later ones find nothing left to do. A failing migration rolls back alone, leaving the earlier
 * ones recorded. Names the database holds that the list lacks (a newer version's) are left alone.
 * Answers the names applied, none when the database was up to date.
 */
export async function migrate(ledger: MigrationLedger, migrations: readonly SqlMigration[]): Promise<string[]> {
  const applied: string[] = [];
  for (;;) {
    const name = await ledger.inLockedTransaction(async (transaction) => {
      const done = await transaction.applied();
      const next = migrations.find((migration) => !done.has(migration.name));
      if (!next) return null;
      for (const sql of next.statements) await transaction.execute(sql);
      await transaction.record(next.name);
      return next.name;
    });
    if (name === null) return applied;
    applied.push(name);
  }
}
