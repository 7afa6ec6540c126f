/**
 * Feeds: short-lived, append-only logs, one per key, whose watchers are woken when they grow, in
 * every process that shares the store (PostgreSQL: a table and LISTEN/NOTIFY; memory and SQLite:
 * within the process). A live turn's chunks travel to readers on other instances this way. Each
 * feed has one writer, which numbers its entries from 0; readers keep their own position.
 */
export interface FeedSet<T> {
  /**
   * Appends `entries`, numbered from `from` (how many the writer appended before). Resolves once
   * a reader anywhere can read them, and their watchers are woken.
   */
  append(key: string, from: number, entries: ReadonlyArray<T>): Promise<void>;
  /** The entries numbered `from` and later, oldest first (none when the feed was dropped). */
  read(key: string, from: number): Promise<T[]>;
  /**
   * Calls `wake` whenever the key's feed grows or is signalled, until the answered function is
   * called. Resolves once wake-ups for later appends are certain. Wake-ups may be merged, and
   * after a lost connection one is sent to everyone (it may be for nothing): read to see.
   */
  watch(key: string, wake: () => void): Promise<() => void>;
  /** Wakes the key's watchers without appending anything. */
  signal(key: string): Promise<void>;
  /** Removes the key's entries. */
  drop(key: string): Promise<void>;
  /** Removes the entries of every key appended before `before` (an ISO instant): what writers that died left. */
  prune(before: string): Promise<void>;
}

/** Longest key a feed takes (a PostgreSQL notification carries it, and its payload is bounded). */
export const MAX_FEED_KEY_LENGTH = 200;
