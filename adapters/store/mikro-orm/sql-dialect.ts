/** The engines the MikroORM store runs on. */
export type SqlEngine = 'sqlite' | 'postgresql';

/**
 * What differs between the engines once the schema exists: placeholder syntax and how the driver
 * hands back JSON and 64-bit integers. Everything else in the SQL is shared.
 */
export interface SqlDialect {
  readonly engine: SqlEngine;
  /** Rewrites the `?` placeholders of shared SQL into the engine's own form. */
  placeholders(sql: string): string;
  /** A JSON column as the driver returns it, as a fresh JavaScript value. */
  readJson(value: unknown): unknown;
  /** A bigint column (epoch milliseconds) as the driver returns it. */
  readMillis(value: unknown): number;
}

export const SQLITE_DIALECT: SqlDialect = {
  engine: 'sqlite',
  placeholders: (sql) => sql,
  // SQLite keeps JSON as text, except that the column's numeric affinity stores a bare number
  // (data that is just `42`) as a number: both read back as the value that was written.
  readJson: (value) => (typeof value === 'string' ? JSON.parse(value) : value),
  readMillis: (value) => value as number,
};

export const POSTGRESQL_DIALECT: SqlDialect = {
  engine: 'postgresql',
  placeholders: (sql) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  },
  // pg parses json and jsonb into a new value on every read.
  readJson: (value) => value,
  // pg returns int8 as a string to avoid losing precision; epoch milliseconds fit a double.
  readMillis: (value) => Number(value),
};

export function dialectFor(engine: SqlEngine): SqlDialect {
  return engine === 'sqlite' ? SQLITE_DIALECT : POSTGRESQL_DIALECT;
}
