/**
 * The part of a libsql connection the store uses. libsql has better-sqlite3's API: every call is
 * synchronous and returns its result. Rows are read with `all()` (it steps to the end, so no read
 * stays open; `get()` would also add a `_metadata` property to the row).
 */
export interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): void;
  close(): void;
  readonly inTransaction: boolean;
}

export interface SqliteStatement {
  all(params: readonly unknown[]): unknown[];
  run(params: readonly unknown[]): { changes: number };
}

/** How a SQLite store's connections are set up. */
export interface SqliteSetup {
  /** How long a statement may wait, in all, for another process's write lock. */
  readonly busyTimeoutMs: number;
  readonly synchronous: 'normal' | 'full';
}

/**
 * How long SQLite itself may wait for a lock. The binding is synchronous, so that wait blocks the
 * event loop: it is kept to a couple of milliseconds (enough for a commit in flight), and longer
 * waits happen between attempts on timers (see whileLocked).
 */
const SQLITE_THREAD_WAIT_MS = 2;

/** Longest pause between two attempts to take a lock another connection holds. */
const MAX_PAUSE_MS = 25;

/** True for SQLite's "another connection holds the lock" answers (SQLITE_BUSY, SQLITE_LOCKED and their extended codes). */
export function isLockedOut(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)(_|$)/.test(code);
}

/**
 * Runs `attempt` until it is not refused for a lock another connection holds, pausing on timers
 * between tries (1 ms, doubling, at most 25 ms, with jitter so racing processes spread out) for up
 * to `waitMs` after the first refusal; then the last refusal is thrown. `stop` is asked before each
 * retry and may throw (a store closed meanwhile). Anything but a lock refusal is thrown at once.
 */
export async function whileLocked<T>(attempt: () => T, waitMs: number, stop?: () => void): Promise<T> {
  let deadline = Number.NaN;
  for (let tries = 0; ; tries++) {
    try {
      return attempt();
    } catch (error) {
      if (!isLockedOut(error)) throw error;
      if (tries === 0) deadline = Date.now() + waitMs;
      if (Date.now() >= deadline) throw error;
    }
    const pause = Math.min(MAX_PAUSE_MS, 2 ** tries) * (0.5 + Math.random() / 2);
    await new Promise((resolve) => setTimeout(resolve, Math.max(1, Math.min(pause, deadline - Date.now()))));
    stop?.();
  }
}

/**
 * Every SQLite connection: WAL so readers never block the writer, synchronous as tuned (normal by
 * default: WAL's recommended pairing), foreign keys on (refs cascade with their record), and a short
 * busy timeout (see SQLITE_THREAD_WAIT_MS). Switching a new file to WAL needs the file to itself,
 * and SQLite answers SQLITE_BUSY there without waiting when other processes open the same new file
 * at that moment: that is retried until the busy timeout.
 */
export async function prepareSqliteConnection(connection: SqliteConnection, setup: SqliteSetup): Promise<void> {
  connection.exec(`pragma busy_timeout = ${SQLITE_THREAD_WAIT_MS}`);
  await whileLocked(() => connection.exec('pragma journal_mode = wal'), setup.busyTimeoutMs);
  // Spelled out rather than interpolated: the value comes from configuration.
  connection.exec(`pragma synchronous = ${setup.synchronous === 'full' ? 'full' : 'normal'}; pragma foreign_keys = on`);
}
