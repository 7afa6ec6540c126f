/** Who waits on which feed key. Each watch is a registration of its own, even of the same function. */
export class FeedWatchers {
  private readonly byKey = new Map<string, Set<() => void>>();

  /** Registers `wake` for `key`; the answer ends this registration. */
  add(key: string, wake: () => void): () => void {
    let set = this.byKey.get(key);
    if (!set) {
      set = new Set();
      this.byKey.set(key, set);
    }
    const entry = () => wake();
    set.add(entry);
    return () => {
      set.delete(entry);
      if (set.size === 0 && this.byKey.get(key) === set) this.byKey.delete(key);
    };
  }

  /** Those watching `key` now (a copy: waking one may add or end a watch). */
  of(key: string): Array<() => void> {
    return [...(this.byKey.get(key) ?? [])];
  }

  /** Everyone watching, key by key (each key's watchers as they are when it is reached). */
  *all(): Iterable<() => void> {
    for (const set of [...this.byKey.values()]) yield* [...set];
  }

  get empty(): boolean {
    return this.byKey.size === 0;
  }
}
