import { AsyncLocalStorage } from 'node:async_hooks';
import type { SqlStatement } from './sql-statement.js';

/** A statement gathered to be sent, and how its caller hears of it. */
export interface GroupedStatement<R> {
  readonly statement: SqlStatement;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * What one turn of the event loop gathered: each group's statements in the order its work issued
 * them, and the statements issued outside any group.
 */
export interface GatheredStatements<R> {
  readonly groups: ReadonlyArray<ReadonlyArray<GroupedStatement<R>>>;
  readonly lone: ReadonlyArray<GroupedStatement<R>>;
}

/**
 * Sends what a turn of the event loop gathered: each group together when it can (all or none), and
 * otherwise each of its statements alone, so every caller sees what it would have seen without it.
 */
export type GatheredSender<R> = (gathered: GatheredStatements<R>) => Promise<void>;

/** One `together`: open while its work runs. */
interface Group {
  open: boolean;
}

/**
 * Gathers the statements issued in one turn of the event loop, whoever issued them, and hands them
 * over at once when the loop turns: those a group's work issued (`together`) as that group's, the
 * others as lone statements. Work that outlives its group (a timer it set) issues lone statements.
 */
export class StatementGroups<R> {
  private readonly current = new AsyncLocalStorage<Group>();
  private gathered: Array<{ readonly group: Group | null; readonly grouped: GroupedStatement<R> }> = [];

  constructor(private readonly send: GatheredSender<R>) {}

  async together<T>(work: () => Promise<T>): Promise<T> {
    const group: Group = { open: true };
    try {
      return await this.current.run(group, work);
    } finally {
      group.open = false;
    }
  }

  /** The statement's result once sent with the others of this turn of the event loop. */
  add(statement: SqlStatement): Promise<R> {
    const group = this.current.getStore();
    return new Promise<R>((resolve, reject) => {
      this.gathered.push({ group: group?.open ? group : null, grouped: { statement, resolve, reject } });
      // The first of a turn's statements waits for the others issued before the loop turns.
      if (this.gathered.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const gathered = this.gathered;
    this.gathered = [];
    const groups = new Map<Group, GroupedStatement<R>[]>();
    const lone: GroupedStatement<R>[] = [];
    for (const { group, grouped } of gathered) {
      if (!group) lone.push(grouped);
      else if (groups.has(group)) groups.get(group)!.push(grouped);
      else groups.set(group, [grouped]);
    }
    void this.send({ groups: [...groups.values()], lone }).catch((error: unknown) => {
      for (const { grouped } of gathered) grouped.reject(error);
    });
  }
}
