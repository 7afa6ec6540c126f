import type { Database, Statement } from 'sqlite3';
import { Unavailable } from '../../../domain/errors.js';
import type { DriverPool, SqlRunner } from './sql-runner.js';
import type { SqlStatement } from './sql-statement.js';
import { storeError } from './store-errors.js';

/**
 * Runs statements on the sqlite3 connection of MikroORM's pool as prepared statements, prepared once
 * per connection: re-preparing costs more than running a point query, and knex would re-prepare
 * each time. knex's SQLite pool has one connection, so borrowing it also serializes the store's
 * statements within this process; other processes wait on SQLite's busy timeout.
 */
export class SqliteRunner implements SqlRunner {
  private readonly prepared = new Map<Database, Map<string, Promise<Statement>>>();
  private closed = false;

  constructor(private readonly pool: DriverPool<Database>) {}

  rows<R>(statement: SqlStatement): Promise<R[]> {
    return this.run(statement, (prepared, params) =>
      // `all` steps to the end and resets the statement, so no read snapshot stays open (`get` would).
      new Promise<R[]>((resolve, reject) => prepared.all(params, (error: Error | null, rows: R[]) => (error ? reject(error) : resolve(rows)))),
    );
  }

  changes(statement: SqlStatement): Promise<number> {
    return this.run(
      statement,
      (prepared, params) =>
        new Promise<number>((resolve, reject) =>
          prepared.run(params, function (this: { changes: number }, error: Error | null) {
            if (error) reject(error);
            else resolve(this.changes);
          }),
        ),
    );
  }

  /** Finalizes every prepared statement: sqlite3 refuses to close a connection that still has some. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.prepared.values()].flatMap((statements) => [...statements.values()]);
    this.prepared.clear();
    await Promise.all(
      all.map(async (pending) => {
        const statement = await pending.catch(() => null);
        if (statement) await new Promise<void>((resolve) => statement.finalize(() => resolve()));
      }),
    );
  }

  private async run<T>(statement: SqlStatement, execute: (prepared: Statement, params: unknown[]) => Promise<T>): Promise<T> {
    if (this.closed) throw new Unavailable('The store is closed');
    let connection: Database;
    try {
      connection = await this.pool.acquire();
    } catch (error) {
      throw storeError(error);
    }
    try {
      return await execute(await this.prepare(connection, statement.sql), statement.params as unknown[]);
    } catch (error) {
      throw storeError(error);
    } finally {
      await this.pool.release(connection);
    }
  }

  private prepare(connection: Database, sql: string): Promise<Statement> {
    let statements = this.prepared.get(connection);
    if (!statements) {
      statements = new Map();
      this.prepared.set(connection, statements);
    }
    let statement = statements.get(sql);
    if (!statement) {
      statement = new Promise<Statement>((resolve, reject) => {
        const prepared: Statement = connection.prepare(sql, (error: Error | null) => (error ? reject(error) : resolve(prepared)));
      });
      const cache = statements;
      // A statement that failed to prepare (a typo, a missing table) is not kept.
      statement.catch(() => cache.delete(sql));
      statements.set(sql, statement);
    }
    return statement;
  }
}
