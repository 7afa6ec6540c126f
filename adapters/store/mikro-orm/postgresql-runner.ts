import type { ClientBase, QueryResult } from 'pg';
import { Unavailable } from '../../../domain/errors.js';
import { onBorrowedConnection, type DriverPool, type SqlRunner } from './sql-runner.js';
import type { SqlStatement } from './sql-statement.js';

/**
 * Runs statements on the pg connections of MikroORM's pool as named prepared statements, so each
 * connection parses and plans a statement once; values always travel as bound parameters.
 */
export class PostgresqlRunner implements SqlRunner {
  private readonly names = new Map<string, string>();
  private closed = false;

  constructor(private readonly pool: DriverPool<ClientBase>) {}

  async rows<R>(statement: SqlStatement): Promise<R[]> {
    return (await this.query(statement)).rows as R[];
  }

  async changes(statement: SqlStatement): Promise<number> {
    return (await this.query(statement)).rowCount ?? 0;
  }

  /** pg keeps prepared statements per connection and drops them with it: nothing to release here. */
  async close(): Promise<void> {
    this.closed = true;
  }

  private async query(statement: SqlStatement): Promise<QueryResult> {
    if (this.closed) throw new Unavailable('The store is closed');
    return onBorrowedConnection(this.pool, (connection) =>
      connection.query({ name: this.nameOf(statement.sql), text: statement.sql, values: statement.params as unknown[] }),
    );
  }

  /** One name per distinct text: pg refuses a name reused for another text on the same connection. */
  private nameOf(sql: string): string {
    let name = this.names.get(sql);
    if (!name) {
      name = `porter_${this.names.size + 1}`;
      this.names.set(sql, name);
    }
    return name;
  }
}
