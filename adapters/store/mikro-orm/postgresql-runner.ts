import type { ClientBase, QueryResult } from 'pg';
import { Unavailable } from '../../../domain/errors.js';
import { unansweredStatement } from '../../shared/unreachable-database.js';
import { borrowed, onBorrowedConnection, type DriverPool, type SqlRunner } from './sql-runner.js';
import type { SqlStatement } from './sql-statement.js';
import { StatementGroups, type GatheredStatements, type GroupedStatement } from './statement-groups.js';
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
 * The most statements pipelined on one connection: more go to another, so a slow one holds few
 * others behind it (a bigger group goes in a pipeline of its own).
 */
const PIPELINE_MAX = 32;

/** What a pipeline carries: a group's statements in one transaction, or one statement in its own. */
interface Unit {
  readonly together: boolean;
  readonly statements: ReadonlyArray<GroupedStatement<QueryResult>>;
}

/**
 * Runs statements on the pg connections of MikroORM's pool as named prepared statements, so each
 * connection parses and plans a statement once; values always travel as bound parameters.
 *
 * What callers issue in one turn of the event loop goes to the server pipelined, up to
 * PIPELINE_MAX statements on one connection in one write: one write and one wake-up of the server
 * instead of one each, which on a busy instance is much of what a statement costs. The statements
 * a group's work issues (`together`) are one transaction between `begin` and `commit`: one round
 * trip and one commit instead of one each; should the transaction fail, none of it holds and each
 * statement is sent again alone, in order, so every caller gets the answer it would have got. Every
 * other statement is a transaction of its own (pg ends each with its own Sync), failing alone.
 */
export class PostgresqlRunner implements SqlRunner {
  private readonly names = new Map<string, string>();
  private readonly gathering = new StatementGroups<QueryResult>((gathered) => this.sendGathered(gathered));
  private closed = false;

  constructor(private readonly pool: DriverPool<ClientBase>) {}

  async rows<R>(statement: SqlStatement): Promise<R[]> {
    return (await this.query(statement)).rows as R[];
  }

  async changes(statement: SqlStatement): Promise<number> {
    return (await this.query(statement)).rowCount ?? 0;
  }

  together<T>(work: () => Promise<T>): Promise<T> {
    return this.gathering.together(work);
  }

  /** pg keeps prepared statements per connection and drops them with it: nothing to release here. */
  async close(): Promise<void> {
    this.closed = true;
  }

  private query(statement: SqlStatement): Promise<QueryResult> {
    if (this.closed) return Promise.reject(new Unavailable('The store is closed'));
    return this.gathering.add(statement);
  }

  private alone(statement: SqlStatement): Promise<QueryResult> {
    return onBorrowedConnection(this.pool, (connection) => connection.query(this.prepared(statement)));
  }

  /** A turn of the event loop's statements: one alone is sent as it is; more, in pipelines. */
  private async sendGathered({ groups, lone }: GatheredStatements<QueryResult>): Promise<void> {
    if (this.closed) throw new Unavailable('The store is closed');
    const units: Unit[] = [
      ...groups.map((statements) => ({ together: statements.length > 1, statements })),
      ...lone.map((grouped) => ({ together: false, statements: [grouped] })),
    ];
    if (units.length === 1 && !units[0]!.together) {
      const only = units[0]!.statements[0]!;
      return this.alone(only.statement).then(only.resolve, only.reject);
    }
    const pipelines: Unit[][] = [];
    let size = 0;
    for (const unit of units) {
      const last = pipelines.at(-1);
      if (last && size + unit.statements.length <= PIPELINE_MAX) {
        last.push(unit);
        size += unit.statements.length;
      } else {
        pipelines.push([unit]);
        size = unit.statements.length;
      }
    }
    await Promise.all(
      pipelines.map((some) =>
        // A connection that could not be borrowed fails these at once, not the others.
        this.pipelined(some).catch((error: unknown) => some.forEach((unit) => unit.statements.forEach((grouped) => grouped.reject(error)))),
      ),
    );
  }

  /** The units' statements in one write on one connection; each caller gets its own answer. */
  private async pipelined(units: ReadonlyArray<Unit>): Promise<void> {
    const connection = await borrowed(this.pool);
    const queries: Array<string | PreparedQuery> = [];
    for (const unit of units) {
      if (unit.together) queries.push('begin');
      for (const grouped of unit.statements) queries.push(this.prepared(grouped.statement));
      if (unit.together) queries.push('commit');
    }
    let settled: PromiseSettledResult<QueryResult>[] | null = null;
    try {
      settled = await this.inOnePipeline(connection, queries);
    } finally {
      // One left unanswered (its answer may still come, read as the next statement's): the connection goes.
      const unanswered = !settled || settled.some((outcome) => outcome.status === 'rejected' && unansweredStatement(outcome.reason));
      await (unanswered ? this.pool.discard(connection) : this.pool.release(connection));
    }
    const retried: Promise<void>[] = [];
    let at = 0;
    for (const unit of units) {
      const count = unit.statements.length + (unit.together ? 2 : 0);
      const answers = settled.slice(at, at + count);
      at += count;
      if (unit.together) retried.push(this.settleTransaction(unit.statements, answers));
      else {
        const [answer] = answers;
        const [grouped] = unit.statements;
        if (answer!.status === 'fulfilled') grouped!.resolve(answer!.value);
        else grouped!.reject(storeError(answer!.reason));
      }
    }
    await Promise.all(retried);
  }

  /**
   * A group's answers from its transaction (`begin`, its statements, `commit`): each statement's
   * own when it committed; the database's failure for all when it could not be reached or did not
   * answer (alone, each would have waited as long to fail); otherwise each statement again alone,
   * in order, as without the group.
   */
  private async settleTransaction(
    statements: ReadonlyArray<GroupedStatement<QueryResult>>,
    answers: ReadonlyArray<PromiseSettledResult<QueryResult>>,
  ): Promise<void> {
    const failed = answers.find((outcome) => outcome.status === 'rejected');
    // A commit after a failed statement answers ROLLBACK, not an error.
    if (!failed && (answers.at(-1) as PromiseFulfilledResult<QueryResult>).value.command === 'COMMIT') {
      statements.forEach((grouped, i) => grouped.resolve((answers[i + 1] as PromiseFulfilledResult<QueryResult>).value));
      return;
    }
    const error = failed ? storeError(failed.reason) : null;
    if (error instanceof Unavailable) {
      for (const grouped of statements) grouped.reject(error);
      return;
    }
    for (const grouped of statements) await this.alone(grouped.statement).then(grouped.resolve, grouped.reject);
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
