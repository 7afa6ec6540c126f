/**
 * Instance liveness kept by the database engine itself: each instance holds a mark for as long as
 * its session lives (PostgreSQL: a session-level advisory lock), and any instance can read whose
 * marks are held. A process killed outright loses its mark as soon as the server sees its
 * connection close, so others can tell it is gone in seconds instead of waiting out a lease.
 */
export interface InstanceLiveness {
  /** Takes this instance's mark for `holder` (the name its leases carry); resolves once held. */
  hold(holder: string): Promise<void>;
  /** Whether this instance's mark is held right now (only then may its leases be judged by it). */
  readonly holding: boolean;
  /** Called when this instance's mark was lost (its session ended): whatever it holds may be taken by others. */
  onLost(listener: () => void): void;
  /** The marks held right now, by every instance on this database. */
  alive(): Promise<LiveMarks>;
  /** Lets the mark go (closing). */
  release(): Promise<void>;
}

/** A snapshot of the marks held. */
export interface LiveMarks {
  /** Whether the instance that took its mark as `holder` still holds it. */
  isAlive(holder: string): boolean;
  /** Each held mark, as an opaque key: a key that was there and is gone is an instance that died. */
  readonly keys: ReadonlySet<string>;
}
