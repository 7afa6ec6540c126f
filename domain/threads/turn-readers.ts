/**
 * When the host opts into giving up turns nobody reads (`turnGraceSeconds`), readers count on every
 * instance: an instance with readers of a turn it follows from elsewhere keeps a mark in the store,
 * renewed while they read. A mark whose instance died lapses at `until`.
 */
export interface ReaderMark {
  readonly turnId: string;
  readonly until: string;
}

/** A turn's abandonment rule: given up once nobody read it anywhere for `graceMs`; absent, a turn always runs to its end. */
export interface AbandonRule {
  readonly graceMs: number;
}

export function readerMark(turnId: string, now: string, leaseMs: number): ReaderMark {
  return { turnId, until: new Date(Date.parse(now) + leaseMs).toISOString() };
}

/** Whether the mark's instance still has readers (it renews the mark while they read). */
export function stillReading(mark: ReaderMark, now: string): boolean {
  return mark.until > now;
}
