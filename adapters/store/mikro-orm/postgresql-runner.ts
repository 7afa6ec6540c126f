import type { ClientBase, QueryResult } from 'pg';
import { Unavailable } from '../../../domain/errors.js';
import { unansweredStatement } from '../../shared/unreachable-database.js';
import { onBorrowedConnection, type DriverPool, type SqlRunner } from './sql-runner.js';
import type { SqlStatement } from './sql-statement.js';
import { StatementGroup, StatementGroups, type GroupedStatement } from './statement-groups.js';
import { storeError } from './store-errors.js';

/** What pg's client exposes to pipeline a group: its mode, and its socket to hold writes back. */
interface PipelinedClient {
  pipeline: boolean;
  readonly connection?: { readonly stream?: { cork?(): void; uncork?(): void } };
}

/** A named prepared statement as pg takes it. */
interface PreparedQuery {
  readonly name: string;
  readonly text: string;
  readonly values: unknown[];
}

/**
 * The most lone statements pipelined on one connection: more go to another, so a slow one holds
 * few others behind it.
 */
const PIPELINE_MAX = 8;

/**
 * Runs statements on the pg connections of MikroORM's pool as named prepared statements, so each
 * connection parses and plans a statement once; values always travel as bound parameters.
 *
 * Statements issued together inside `together` (in one turn of the event loop) go to the server
 * pipelined on one connection, in one transaction between `begin` and `commit`: one write, one
 * round trip and one commit instead of one each. Should the transaction fail, none of it holds and
 * each statement is sent again alone, in order, so every caller gets the answer it would have got.
 *
 * Statements outside any group that callers issue in the same turn of the event loop (many people's
 * requests at once) are pipelined on one connection too, each still its own transaction (pg ends
 * each with its own Sync, so one that fails fails alone): one write and one wake-up of the server
 * instead of one each, which on a busy instance is much of what a statement costs.
 */
export class PostgresqlRunner implements SqlRunner {
  private readonly names = new Map<string, string>();
  private readonly groups = new StatementGroups<QueryResult>((statements) => this.sendGroup(statements));
  private readonly lone = new StatementGroup<QueryResult>((statements) => this.sendLone(statements));
  private closed = false;

  constructor(private readonly pool: DriverPool<ClientBase>) {}

  async rows<R>(statement: SqlStatement): Promise<R[]> {
    return (await this.query(statement)).rows as R[];
  }

  async changes(statement: SqlStatement): Promise<number> {
    return (await this.query(statement)).rowCount ?? 0;
  }

  together<T>(work: () => Promise<T>): Promise<T> {
    return this.groups.together(work);
  }

  /** pg keeps prepared statements per connection and drops them with it: nothing to release here. */
  async close(): Promise<void> {
    this.closed = true;
  }

  private query(statement: SqlStatement): Promise<QueryResult> {
    if (this.closed) return Promise.reject(new Unavailable('The store is closed'));
    return this.groups.joining(statement) ?? this.lone.add(statement);
  }

  private alone(statement: SqlStatement): Promise<QueryResult> {
    return onBorrowedConnection(this.pool, (connection) => connection.query(this.prepared(statement)));
  }

  private async sendGroup(statements: ReadonlyArray<GroupedStatement<QueryResult>>): Promise<void> {
    if (this.closed) throw new Unavailable('The store is closed');
    if (statements.length > 1) {
      let results: QueryResult[];
      try {
        results = await onBorrowedConnection(this.pool, (connection) =>
          this.inOneTransaction(
            connection,
            statements.map((grouped) => grouped.statement),
          ),
        );
      } catch (error) {
        // A database that cannot be reached or did not answer would fail each statement alone too,
        // after as long a wait: the group fails at once (the caller rejects every statement with it).
        if (error instanceof Unavailable) throw error;
        results = [];
      }
      if (results.length === statements.length) {
        statements.forEach((grouped, i) => grouped.resolve(results[i]!));
        return;
      }
    }
    // Rolled back as a whole by a statement's own error (or a lone statement): each alone, in order, as without the group.
    for (const grouped of statements) await this.alone(grouped.statement).then(grouped.resolve, grouped.reject);
  }

  /**
   * Lone statements of one turn of the event loop: one is sent as it is; several, up to
   * PIPELINE_MAX on a connection, pipelined, each answered as it would have been alone.
   */
  private async sendLone(statements: ReadonlyArray<GroupedStatement<QueryResult>>): Promise<void> {
    if (this.closed) throw new Unavailable('The store is closed');
    if (statements.length === 1) {
      const [only] = statements;
      return this.alone(only!.statement).then(only!.resolve, only!.reject);
    }
    const runs: Promise<void>[] = [];
    for (let start = 0; start < statements.length; start += PIPELINE_MAX) {
      const some = statements.slice(start, start + PIPELINE_MAX);
      // A connection that could not be borrowed fails these alone, not the others.
      runs.push(this.pipelined(some).catch((error: unknown) => some.forEach((grouped) => grouped.reject(error))));
    }
    await Promise.all(runs);
  }

  /** Statements each in a transaction of its own, in one write on one connection; each caller gets its own answer. */
  private async pipelined(statements: ReadonlyArray<GroupedStatement<QueryResult>>): Promise<void> {
    let connection: ClientBase;
    try {
      connection = await this.pool.acquire();
    } catch (error) {
      throw storeError(error);
    }
    let settled: PromiseSettledResult<QueryResult>[] | null = null;
    try {
      settled = await this.inOnePipeline(
        connection,
        statements.map((grouped) => this.prepared(grouped.statement)),
      );
    } finally {
      // One left unanswered (its answer may still come, read as the next statement's): the connection goes.
      const unanswered = !settled || settled.some((outcome) => outcome.status === 'rejected' && unansweredStatement(outcome.reason));
      await (unanswered ? this.pool.discard(connection) : this.pool.release(connection));
    }
    settled.forEach((outcome, i) =>
      outcome.status === 'fulfilled' ? statements[i]!.resolve(outcome.value) : statements[i]!.reject(storeError(outcome.reason)),
    );
  }

  /** The statements' results, all committed; rejects when the transaction did not commit. */
  private async inOneTransaction(connection: ClientBase, statements: ReadonlyArray<SqlStatement>): Promise<QueryResult[]> {
    const settled = await this.inOnePipeline(connection, ['begin', ...statements.map((statement) => this.prepared(statement)), 'commit']);
    const failed = settled.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    const answers = settled.map((outcome) => (outcome as PromiseFulfilledResult<QueryResult>).value);
    // A commit after a failed statement answers ROLLBACK, not an error.
    if (answers.at(-1)!.command !== 'COMMIT') throw new Error('the group was rolled back');
    return answers.slice(1, -1);
  }

  /** Sends `queries` pipelined, every message in one write; how each ended, once all are answered. */
  private async inOnePipeline(
    connection: ClientBase,
    queries: ReadonlyArray<string | PreparedQuery>,
  ): Promise<PromiseSettledResult<QueryResult>[]> {
    const client = connection as unknown as PipelinedClient;
    const stream = client.connection?.stream;
    client.pipeline = true;
    stream?.cork?.();
    let sent: Promise<QueryResult>[];
    try {
      sent = queries.map((query) => connection.query(query));
    } finally {
      stream?.uncork?.();
    }
    try {
      return await Promise.allSettled(sent);
    } finally {
      client.pipeline = false;
    }
  }

  private prepared(statement: SqlStatement): PreparedQuery {
    return { name: this.nameOf(statement.sql), text: statement.sql, values: statement.params as unknown[] };
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
