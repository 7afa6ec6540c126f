import { AsyncLocalStorage } from 'node:async_hooks';
import type { SqlStatement } from './sql-statement.js';

/** A statement issued in a group, and how its caller hears of it. */
export interface GroupedStatement<R> {
  readonly statement: SqlStatement;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * Sends the statements a group gathered in one turn of the event loop: together when it can (all
 * or none), and otherwise each alone, so its callers see what they would have seen without it.
 */
export type GroupSender<R> = (statements: ReadonlyArray<GroupedStatement<R>>) => Promise<void>;

/**
 * Statements issued in one turn of the event loop, gathered until the loop turns and then handed
 * to `send` together: a group's (its work's statements), or a runner's lone statements.
 */
export class StatementGroup<R> {
  open = true;
  private gathered: GroupedStatement<R>[] = [];

  constructor(private readonly send: GroupSender<R>) {}

  add(statement: SqlStatement): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.gathered.push({ statement, resolve, reject });
      // The first of a turn's statements waits for the others its work issues before the loop turns.
      if (this.gathered.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const statements = this.gathered;
    this.gathered = [];
    void this.send(statements).catch((error: unknown) => {
      for (const grouped of statements) grouped.reject(error);
    });
  }
}

/**
 * Groups of statements sent together (`together`): a runner asks `joining()` for each statement
 * and, inside a group's work, hands the statement to the group instead of sending it itself. Work
 * that outlives its group (a timer it set) sends its statements alone.
 */
export class StatementGroups<R> {
  private readonly current = new AsyncLocalStorage<StatementGroup<R>>();

  constructor(private readonly send: GroupSender<R>) {}

  async together<T>(work: () => Promise<T>): Promise<T> {
    const group = new StatementGroup<R>(this.send);
    try {
      return await this.current.run(group, work);
    } finally {
      group.open = false;
    }
  }

  /** The statement's result through the open group it was issued in; null outside any. */
  joining(statement: SqlStatement): Promise<R> | null {
    const group = this.current.getStore();
    return group?.open ? group.add(statement) : null;
  }
}
