/**
 * One checked-in schema change: its statements run in order, in one transaction, and its name is
 * then recorded in porter_migrations. Names are what the database remembers: never rename one,
 * never edit one that has shipped (add another).
 */
export interface SqlMigration {
  readonly name: string;
  readonly statements: readonly string[];
}
