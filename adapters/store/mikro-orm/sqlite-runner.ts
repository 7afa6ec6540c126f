import { Unavailable } from '../../../domain/errors.js';
import type { SqliteConnection, SqliteStatement } from './sqlite-connection.js';
import { isLockedOut, whileLocked } from './sqlite-connection.js';
import { onBorrowedConnection, type DriverPool, type SqlRunner } from './sql-runner.js';
import type { SqlStatement } from './sql-statement.js';
import { storeError } from './store-errors.js';

/**
 * Longest stretch of back-to-back statements before the runner lets the event loop turn: a loop of
 * thousands of synchronous statements (a tick over many automations) must not hold off timers and
 * requests until it ends.
 */
const SLICE_MS = 10;

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
  /** When the current run of statements without an event-loop turn began; null once the loop turned. */
  private sliceStartedAt: number | null = null;

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
    if (this.sliceIsLong()) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.ensureOpen();
    const sole = this.pool.sole;
    if (sole !== undefined) {
      // The file's own connection: the statement runs now, without borrowing it. Only a lock
      // another process holds sends it down the retrying path.
      try {
        return execute(this.prepare(sole, statement.sql), statement.params);
      } catch (error) {
        if (!isLockedOut(error)) throw storeError(error);
      }
    }
    return onBorrowedConnection(this.pool, (connection) =>
      whileLocked(
        () => execute(this.prepare(connection, statement.sql), statement.params),
        this.busyTimeoutMs,
        () => this.ensureOpen(),
      ),
    );
  }

  /** Starts a slice (and notes when the loop next turns), or says the current one has run long enough. */
  private sliceIsLong(): boolean {
    const now = performance.now();
    if (this.sliceStartedAt === null) {
      this.sliceStartedAt = now;
      setImmediate(() => (this.sliceStartedAt = null));
      return false;
    }
    return now - this.sliceStartedAt >= SLICE_MS;
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
