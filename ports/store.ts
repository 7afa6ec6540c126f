import type { FeedSet } from './feeds.js';
import type { NoVectors, VectorIndexes } from './vector-index.js';
import type { TextIndex } from './text-index.js';
import type { InstanceLiveness } from './liveness.js';

/**
 * The Store port: named record sets and blob namespaces. Every adapter (memory, SQLite,
 * PostgreSQL) passes one conformance suite (test/adapters/store/store-conformance.ts).
 */

/** A stored record: the caller's data plus what the store keeps about it. */
export interface StoredRecord<T> {
  readonly id: string;
  readonly data: T;
  /** Exact-match labels a list can filter on (owner, thread, app...). Values are strings. */
  readonly refs: Readonly<Record<string, string>>;
  /** Starts at 1 and grows by one on every write; compareAndSwap and claim check it. */
  readonly revision: number;
  /** ISO-8601 instants stamped by the store from its clock. */
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface RecordInput<T> {
  readonly id: string;
  readonly data: T;
  readonly refs?: Readonly<Record<string, string>>;
}

/** What replaces a record on a successful claim or swap. Omitted refs keep the current ones. */
export interface Replacement<T> {
  readonly data: T;
  readonly refs?: Readonly<Record<string, string>>;
}

export interface ListQuery {
  /** Every given ref must match exactly. */
  readonly refs?: Readonly<Record<string, string>>;
  /** Page size, 1..500; default 50. */
  readonly limit?: number;
  /** The `nextCursor` of the previous page. */
  readonly cursor?: string | null;
}

export interface Page<T> {
  /** Newest first: by creation time, then by id, both descending. */
  readonly items: ReadonlyArray<StoredRecord<T>>;
  readonly nextCursor: string | null;
}

/** Revision-based atomic operations. Present only where the adapter can guarantee them. */
export interface AtomicRecordOps<T> {
  /** Inserts when no record has this id. Exactly one of many racing callers gets the record. */
  insertIfAbsent(input: RecordInput<T>): Promise<StoredRecord<T> | null>;
  /**
   * insertIfAbsent for many records at once (claiming a tick's schedule slots): each id is decided
   * atomically — of racing callers exactly one inserts it — and the answer lists the records this
   * call inserted. The batch as a whole is not one transaction: a failure may leave a prefix in.
   */
  insertManyIfAbsent(inputs: ReadonlyArray<RecordInput<T>>): Promise<ReadonlyArray<StoredRecord<T>>>;
  /** Writes when the stored revision still equals `expectedRevision`; null when it moved on or is gone. */
  compareAndSwap(id: string, expectedRevision: number, replacement: Replacement<T>): Promise<StoredRecord<T> | null>;
}

export interface RecordSet<T> {
  get(id: string): Promise<StoredRecord<T> | null>;
  /** Inserts or overwrites (last writer wins), bumping the revision. */
  put(input: RecordInput<T>): Promise<StoredRecord<T>>;
  /** True when a record was removed. */
  delete(id: string): Promise<boolean>;
  list(query?: ListQuery): Promise<Page<T>>;
  /**
   * True for the single caller whose read of `expected` still matches the stored revision. With a
   * replacement the record becomes it; without one the record is consumed (deleted).
   * Absent on stores that cannot make it atomic: callers must then fail closed.
   */
  readonly claim?: (expected: StoredRecord<T>, replacement?: Replacement<T>) => Promise<boolean>;
  readonly atomic?: AtomicRecordOps<T>;
}

export interface BlobInfo {
  readonly key: string;
  readonly contentType: string;
  readonly size: number;
  readonly updatedAt: string;
}

export interface Blob extends BlobInfo {
  readonly bytes: Uint8Array;
}

export interface BlobStore {
  get(key: string): Promise<Blob | null>;
  put(key: string, bytes: Uint8Array, contentType: string): Promise<BlobInfo>;
  delete(key: string): Promise<boolean>;
  /** Keys in ascending order. */
  list(): Promise<ReadonlyArray<BlobInfo>>;
}

export type StoreKind = 'memory' | 'sqlite' | 'postgresql';

export interface Store {
  readonly kind: StoreKind;
  records<T>(name: string): RecordSet<T>;
  blobs(namespace: string): BlobStore;
  /**
   * Feeds (ports/feeds.ts) shared by every process on this store. Absent on a host's own Store:
   * Porter then keeps feeds within the process.
   */
  feeds?<T>(namespace: string): FeedSet<T>;
  /**
   * A full-text index (ports/text-index.ts) over the store's own database. Absent on a host's own
   * Store: Porter then keeps passages as records and scans them.
   */
  textIndex?(collection: string): TextIndex;
  /**
   * Vector indexes (ports/vector-index.ts) over the store's own database, for hybrid retrieval:
   * libsql's on SQLite, pgvector on PostgreSQL when the extension can be made (`NoVectors` with the
   * reason otherwise). Absent on a host's own Store: retrieval is full-text alone.
   */
  vectors?(): Promise<VectorIndexes | NoVectors>;
  /**
   * This instance's liveness mark and everyone's (ports/liveness.ts), where the engine keeps
   * sessions others can see (PostgreSQL). Absent or null elsewhere: leases alone tell a crash.
   */
  liveness?(): InstanceLiveness | null;
  /**
   * Runs `work`, sending the statements it issues at once (in one turn of the event loop, as
   * `Promise.all` issues them) to the database together where the engine can: one round trip and
   * one transaction on PostgreSQL. Each caller still gets the answer it would have got alone (a
   * group that cannot commit is sent again statement by statement). Absent: work runs as it comes.
   */
  together?<T>(work: () => Promise<T>): Promise<T>;
  /** Resolves when the backing database answers; rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

/**
 * Every record matching `refs`, newest first, walking all pages: for sweeps, adoption and
 * development reports, never for a page a person asked for.
 */
export async function everyRecord<T>(set: RecordSet<T>, refs: Readonly<Record<string, string>> = {}): Promise<StoredRecord<T>[]> {
  const all: StoredRecord<T>[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<T> = await set.list({ refs, limit: MAX_PAGE_SIZE, cursor });
    all.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}
