import type { Clock } from '../../../ports/clock.js';
import type { FeedSet } from '../../../ports/feeds.js';
import { checkKey, checkNamespace } from '../shared/feed-names.js';
import { FeedWatchers } from '../shared/feed-watchers.js';

interface Log {
  readonly entries: unknown[];
  /** When the last entries were appended, epoch milliseconds. */
  appendedAt: number;
}

/**
 * Feeds kept in this process (the memory store, SQLite, and a host's own Store without feeds):
 * every reader of a key is in the process that writes it, so a watcher is woken directly. Entries
 * are kept as given, not copied.
 */
export class MemoryFeeds {
  private readonly spaces = new Map<string, MemoryFeedSet<unknown>>();

  constructor(private readonly clock: Clock) {}

  feeds<T>(namespace: string): FeedSet<T> {
    checkNamespace(namespace);
    let space = this.spaces.get(namespace);
    if (!space) {
      space = new MemoryFeedSet(this.clock);
      this.spaces.set(namespace, space);
    }
    return space as FeedSet<T>;
  }
}

class MemoryFeedSet<T> implements FeedSet<T> {
  private readonly logs = new Map<string, Log>();
  private readonly watchers = new FeedWatchers();

  constructor(private readonly clock: Clock) {}

  async append(key: string, from: number, entries: ReadonlyArray<T>): Promise<void> {
    checkKey(key);
    let log = this.logs.get(key);
    if (!log) {
      log = { entries: [], appendedAt: 0 };
      this.logs.set(key, log);
    }
    if (from > log.entries.length) throw new RangeError(`feed ${key}: entry ${from} appended after ${log.entries.length}`);
    // Entries already there (an append retried) are kept as they are.
    for (let i = log.entries.length - from; i < entries.length; i++) log.entries.push(entries[i]);
    log.appendedAt = this.clock.now().getTime();
    this.wake(key);
  }

  async read(key: string, from: number): Promise<T[]> {
    if (from < 0) throw new RangeError('a feed position is 0 or more');
    return (this.logs.get(key)?.entries.slice(from) ?? []) as T[];
  }

  async watch(key: string, wake: () => void): Promise<() => void> {
    return this.watchers.add(key, wake);
  }

  async signal(key: string): Promise<void> {
    checkKey(key);
    this.wake(key);
  }

  async drop(key: string): Promise<void> {
    this.logs.delete(key);
  }

  async prune(before: string): Promise<void> {
    const cutoff = Date.parse(before);
    for (const [key, log] of this.logs) if (log.appendedAt < cutoff) this.logs.delete(key);
  }

  /** Wakes after the caller's own step, as a notification from another process would. */
  private wake(key: string): void {
    for (const wake of this.watchers.of(key)) queueMicrotask(wake);
  }
}
