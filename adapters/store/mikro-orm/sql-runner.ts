import type { SqlStatement } from './sql-statement.js';

/**
 * Runs single statements on MikroORM's own connection pool, bypassing the unit of work: the store's
 * writes are single statements, so a borrowed connection per statement is all they need.
 */
export interface SqlRunner {
  /** The rows the statement returns. */
  rows<R>(statement: SqlStatement): Promise<R[]>;
  /** How many rows the statement inserted, updated or deleted. */
  changes(statement: SqlStatement): Promise<number>;
  /** Releases what the runner holds on its connections (prepared statements); the pool stays MikroORM's. */
  close(): Promise<void>;
}

/** A driver connection pool: MikroORM's, as knex keeps it. */
export interface DriverPool<C> {
  acquire(): Promise<C>;
  release(connection: C): Promise<void>;
}

/** The part of knex's client a DriverPool needs. */
export interface KnexClientLike {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown>;
}

export function driverPool<C>(client: KnexClientLike): DriverPool<C> {
  return {
    acquire: () => client.acquireConnection() as Promise<C>,
    release: async (connection) => {
      await client.releaseConnection(connection);
    },
  };
}
