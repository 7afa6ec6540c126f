import type { Clock } from '../../../ports/clock.js';
import { MAX_FEED_KEY_LENGTH, type FeedSet } from '../../../ports/feeds.js';
import { checkNamespace } from '../shared/feed-names.js';

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
  private readonly watchers = new Map<string, Set<() => void>>();

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
    let set = this.watchers.get(key);
    if (!set) {
      set = new Set();
      this.watchers.set(key, set);
    }
    // One registration per call, even for the same function.
    const entry = () => wake();
    set.add(entry);
    return () => {
      set.delete(entry);
      if (set.size === 0 && this.watchers.get(key) === set) this.watchers.delete(key);
    };
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
    const set = this.watchers.get(key);
    if (!set) return;
    for (const wake of [...set]) queueMicrotask(wake);
  }
}

function checkKey(key: string): void {
  if (key.length === 0 || key.length > MAX_FEED_KEY_LENGTH || key.includes('\u0000'))
    throw new RangeError(`a feed key is 1 to ${MAX_FEED_KEY_LENGTH} characters, without NUL`);
}
