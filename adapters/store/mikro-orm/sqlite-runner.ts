import { Unavailable } from '../../../domain/errors.js';
import type { SqliteConnection, SqliteStatement } from './sqlite-connection.js';
import { whileLocked } from './sqlite-connection.js';
import type { DriverPool, SqlRunner } from './sql-runner.js';
import type { SqlStatement } from './sql-statement.js';
import { storeError } from './store-errors.js';

/**
 * Runs statements on a libsql connection as prepared statements, prepared once per connection:
 * re-preparing costs more than running a point query. libsql is synchronous, so each statement
 * runs whole before anything else in this process touches the connection. When another process
 * holds the write lock, the statement is retried on timers until the busy timeout, so the event
 * loop keeps running meanwhile (see whileLocked).
 */
export class SqliteRunner implements SqlRunner {
  private prepared = new WeakMap<SqliteConnection, Map<string, SqliteStatement>>();
  private closed = false;

  constructor(
    private readonly pool: DriverPool<SqliteConnection>,
    private readonly busyTimeoutMs: number,
  ) {}

  rows<R>(statement: SqlStatement): Promise<R[]> {
    return this.run(statement, (prepared, params) => prepared.all(params) as R[]);
  }

  changes(statement: SqlStatement): Promise<number> {
    return this.run(statement, (prepared, params) => prepared.run(params).changes);
  }

  /**
   * Drops every prepared statement. libsql has no finalize: a statement keeps its connection's
   * file open until it is garbage-collected, so none may stay referenced once the store closes.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.prepared = new WeakMap();
  }

  private async run<T>(statement: SqlStatement, execute: (prepared: SqliteStatement, params: readonly unknown[]) => T): Promise<T> {
    this.ensureOpen();
    let connection: SqliteConnection;
    try {
      connection = await this.pool.acquire();
    } catch (error) {
      throw storeError(error);
    }
    try {
      return await whileLocked(() => execute(this.prepare(connection, statement.sql), statement.params), this.busyTimeoutMs, () => this.ensureOpen());
    } catch (error) {
      throw storeError(error);
    } finally {
      await this.pool.release(connection);
    }
  }

  private ensureOpen(): void {
    if (this.closed) throw new Unavailable('The store is closed');
  }

  private prepare(connection: SqliteConnection, sql: string): SqliteStatement {
    let statements = this.prepared.get(connection);
    if (!statements) {
      statements = new Map();
      this.prepared.set(connection, statements);
    }
    let statement = statements.get(sql);
    if (!statement) {
      // A statement that fails to prepare (a typo, a missing table) throws here and is not kept.
      statement = connection.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  }
}
