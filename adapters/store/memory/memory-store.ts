import type {
  Blob,
  BlobInfo,
  BlobStore,
  ListQuery,
  Page,
  RecordInput,
  RecordSet,
  Replacement,
  Store,
  StoredRecord,
} from '../../../ports/store.js';
import type { Clock } from '../../../ports/clock.js';
import type { RecordRow } from '../mikro-orm/record-schema.js';
import type { FeedSet } from '../../../ports/feeds.js';
import { MemoryFeeds } from './memory-feeds.js';
import type { TextIndex } from '../../../ports/text-index.js';
import type { VectorIndexes } from '../../../ports/vector-index.js';
import { MemoryVectorIndexes } from './memory-vector-indexes.js';
import { ScanningTextIndex } from '../shared/scanning-text-index.js';
import { decodeCursor, encodeCursor, isAfter, pageSize } from '../shared/cursor.js';
import { assertStorableRecord, isStorableText, UnstorableText } from '../shared/storable-text.js';

export interface MemoryStoreOptions {
  clock: Clock;
  /**
   * False builds a store whose record sets lack `claim` and `atomic`, the shape of a backend that
   * cannot make them atomic; callers must fail closed on it.
   */
  atomic?: boolean;
}

/** A record as kept here: the SQL row without its collection (each collection has its own map). */
type Row = Omit<RecordRow, 'collection'>;

/** A process-local store. JavaScript runs one callback at a time, so a check-and-write is atomic. */
export class MemoryStore implements Store {
  readonly kind = 'memory' as const;
  private readonly sets = new Map<string, Map<string, Row>>();
  private readonly blobSpaces = new Map<string, Map<string, Blob>>();
  private readonly feedSpaces: MemoryFeeds;
  private readonly vectorIndexes = new MemoryVectorIndexes();

  constructor(private readonly options: MemoryStoreOptions) {
    this.feedSpaces = new MemoryFeeds(options.clock);
  }

  records<T>(name: string): RecordSet<T> {
    let rows = this.sets.get(name);
    if (!rows) {
      rows = new Map();
      this.sets.set(name, rows);
    }
    return new MemoryRecordSet<T>(rows, this.options.clock, this.options.atomic !== false);
  }

  blobs(namespace: string): BlobStore {
    let blobs = this.blobSpaces.get(namespace);
    if (!blobs) {
      blobs = new Map();
      this.blobSpaces.set(namespace, blobs);
    }
    return new MemoryBlobStore(blobs, this.options.clock);
  }

  feeds<T>(namespace: string): FeedSet<T> {
    return this.feedSpaces.feeds<T>(namespace);
  }

  /** Passages as records of their own set, scanned on search. */
  textIndex(collection: string): TextIndex {
    return new ScanningTextIndex(this.records(`porter-text:${collection}`));
  }

  /** Vectors scanned exactly. */
  async vectors(): Promise<VectorIndexes> {
    return this.vectorIndexes;
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}
}

class MemoryRecordSet<T> implements RecordSet<T> {
  readonly claim?: (expected: StoredRecord<T>, replacement?: Replacement<T>) => Promise<boolean>;
  readonly atomic?: RecordSet<T>['atomic'];

  constructor(
    private readonly rows: Map<string, Row>,
    private readonly clock: Clock,
    atomic: boolean,
  ) {
    if (atomic) {
      this.claim = async (expected, replacement) => {
        const row = this.rows.get(expected.id);
        if (!row || row.revision !== expected.revision) return false;
        if (replacement) this.write(expected.id, replacement.data, replacement.refs ?? row.refs, row);
        else this.rows.delete(expected.id);
        return true;
      };
      this.atomic = {
        insertIfAbsent: async (input) => {
          assertStorableRecord(input);
          if (this.rows.has(input.id)) return null;
          return toRecord<T>(this.write(input.id, input.data, input.refs ?? {}, undefined));
        },
        insertManyIfAbsent: async (inputs) => {
          for (const input of inputs) assertStorableRecord(input);
          return inputs.flatMap((input) =>
            this.rows.has(input.id) ? [] : [toRecord<T>(this.write(input.id, input.data, input.refs ?? {}, undefined))],
          );
        },
        compareAndSwap: async (id, expectedRevision, replacement) => {
          if (replacement.refs) assertStorableRecord({ id, refs: replacement.refs });
          const row = this.rows.get(id);
          if (!row || row.revision !== expectedRevision) return null;
          return toRecord<T>(this.write(id, replacement.data, replacement.refs ?? row.refs, row));
        },
      };
    }
  }

  async get(id: string): Promise<StoredRecord<T> | null> {
    const row = this.rows.get(id);
    return row ? toRecord<T>(row) : null;
  }

  async put(input: RecordInput<T>): Promise<StoredRecord<T>> {
    // The SQL stores cannot keep these; the memory store refuses them alike.
    assertStorableRecord(input);
    return toRecord<T>(this.write(input.id, input.data, input.refs ?? {}, this.rows.get(input.id)));
  }

  async delete(id: string): Promise<boolean> {
    return this.rows.delete(id);
  }

  async list(query: ListQuery = {}): Promise<Page<T>> {
    const limit = pageSize(query.limit);
    const after = decodeCursor(query.cursor);
    const wanted = Object.entries(query.refs ?? {});
    const matches = [...this.rows.values()]
      .filter((row) => wanted.every(([name, value]) => row.refs[name] === value))
      .filter((row) => !after || isAfter(after, row.createdAt, row.id))
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    const items = matches.slice(0, limit);
    const last = items[items.length - 1];
    const nextCursor = matches.length > limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null;
    return { items: items.map((row) => toRecord<T>(row)), nextCursor };
  }

  private write(id: string, data: unknown, refs: Readonly<Record<string, string>>, previous: Row | undefined): Row {
    const now = this.clock.now().getTime();
    const row: Row = {
      id,
      data: structuredClone(data),
      refs: { ...refs },
      revision: (previous?.revision ?? 0) + 1,
      createdAt: previous?.createdAt ?? now,
      updatedAt: now,
    };
    this.rows.set(id, row);
    return row;
  }
}

function toRecord<T>(row: Row): StoredRecord<T> {
  return {
    id: row.id,
    data: structuredClone(row.data) as T,
    refs: { ...row.refs },
    revision: row.revision,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

class MemoryBlobStore implements BlobStore {
  constructor(
    private readonly blobs: Map<string, Blob>,
    private readonly clock: Clock,
  ) {}

  async get(key: string): Promise<Blob | null> {
    const blob = this.blobs.get(key);
    return blob ? { ...blob, bytes: new Uint8Array(blob.bytes) } : null;
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<BlobInfo> {
    if (!isStorableText(key)) throw new UnstorableText('blob key');
    if (!isStorableText(contentType)) throw new UnstorableText("blob's content type");
    const blob: Blob = {
      key,
      contentType,
      size: bytes.byteLength,
      updatedAt: this.clock.now().toISOString(),
      bytes: new Uint8Array(bytes),
    };
    this.blobs.set(key, blob);
    return info(blob);
  }

  async delete(key: string): Promise<boolean> {
    return this.blobs.delete(key);
  }

  async list(): Promise<ReadonlyArray<BlobInfo>> {
    return [...this.blobs.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map(info);
  }
}

function info(blob: Blob): BlobInfo {
  return { key: blob.key, contentType: blob.contentType, size: blob.size, updatedAt: blob.updatedAt };
}
