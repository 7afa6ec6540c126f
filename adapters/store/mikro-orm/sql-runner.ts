import { unansweredStatement } from '../../shared/unreachable-database.js';
import type { SqlStatement } from './sql-statement.js';
import { storeError } from './store-errors.js';

/**
 * Runs single statements on the store's connections, bypassing MikroORM's unit of work: the
 * store's writes are single statements, so a borrowed connection per statement is all they need.
 */
export interface SqlRunner {
  /** The rows the statement returns. */
  rows<R>(statement: SqlStatement): Promise<R[]>;
  /** How many rows the statement inserted, updated or deleted. */
  changes(statement: SqlStatement): Promise<number>;
  /** Releases what the runner holds on its connections (prepared statements); the connections stay their owner's. */
  close(): Promise<void>;
  /** Store.together: the statements `work` issues at once, sent together where the engine can. */
  together?<T>(work: () => Promise<T>): Promise<T>;
}

/** Where a runner borrows a connection for each statement. */
export interface DriverPool<C> {
  acquire(): Promise<C>;
  release(connection: C): Promise<void>;
  /** Closes a connection that may still be waiting for an answer, so the pool never lends it again. */
  discard(connection: C): Promise<void>;
  /** The pool's one connection, when it lends the same one to everybody and it can be used without waiting. */
  readonly sole?: C;
}

/** The part of knex's client the store uses: its pool, and raw connections outside it. */
export interface KnexClientLike {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown>;
  acquireRawConnection(): Promise<unknown>;
  destroyRawConnection(connection: unknown): Promise<unknown>;
}

/**
 * Runs `use` on a connection borrowed from the pool and gives it back after, or throws it away
 * when a statement on it went unanswered (the answer may still come, and would be read as the next
 * statement's). A failure to borrow or to run is the store's error (storeError), as every
 * statement answers.
 */
export async function onBorrowedConnection<C, T>(pool: DriverPool<C>, use: (connection: C) => Promise<T>): Promise<T> {
  const connection = await borrowed(pool);
  let unanswered = false;
  try {
    return await use(connection);
  } catch (error) {
    unanswered = unansweredStatement(error);
    throw storeError(error);
  } finally {
    await (unanswered ? pool.discard(connection) : pool.release(connection));
  }
}

/** A connection from the pool; a failure to borrow one is the store's error (storeError). */
export async function borrowed<C>(pool: DriverPool<C>): Promise<C> {
  try {
    return await pool.acquire();
  } catch (error) {
    throw storeError(error);
  }
}

/** MikroORM's connection pool, as knex keeps it. */
export function driverPool<C>(client: KnexClientLike): DriverPool<C> {
  return {
    acquire: () => client.acquireConnection() as Promise<C>,
    release: async (connection) => {
      await client.releaseConnection(connection);
    },
    // Closed first (pg closes at once a connection with a statement outstanding), then given back:
    // knex marks a closed connection disposed and the pool drops it instead of lending it.
    discard: async (connection) => {
      await client.destroyRawConnection(connection).catch(() => undefined);
      await client.releaseConnection(connection);
    },
  };
}

/** One connection lent to every statement: for a synchronous driver, whose statements never interleave. */
export function soleConnection<C>(connection: C): DriverPool<C> {
  const lent = Promise.resolve(connection);
  return { acquire: () => lent, release: async () => undefined, discard: async () => undefined, sole: connection };
}
