import type { PassageFilter } from './text-index.js';

/**
 * The VectorIndex port: named collections of embeddings (one per passage) searched by nearness to a
 * query's embedding, with the same exact-match labels as the text index (ports/text-index.ts) to
 * scope a search by. Adapters: libsql's vector index on SQLite (`F32_BLOB`, `libsql_vector_idx`,
 * `vector_top_k`), pgvector on PostgreSQL when the extension is installed, a scan in memory.
 */

/** One passage's embedding, with the labels it is found by. */
export interface VectorEntry {
  /** Unique within the collection; a put with the same id replaces the entry. */
  readonly id: string;
  readonly refs: Readonly<Record<string, string>>;
  readonly vector: ReadonlyArray<number>;
}

export interface VectorSearch {
  readonly vector: ReadonlyArray<number>;
  /** Every label given must match; `{}` searches the whole collection. */
  readonly where: PassageFilter;
  /** Most hits answered, 1..500. */
  readonly limit: number;
}

export interface VectorHit {
  readonly id: string;
  readonly refs: Readonly<Record<string, string>>;
  /** Cosine distance to the query, 0 (same direction) to 2; lower is nearer. */
  readonly distance: number;
}

export interface VectorIndex {
  /** Inserts or replaces each entry (by id); every vector has the index's dimensions. */
  put(entries: ReadonlyArray<VectorEntry>): Promise<void>;
  /** The nearest entries carrying the labels, nearest first. */
  search(query: VectorSearch): Promise<VectorHit[]>;
}

/**
 * What a store offers for vectors: its engine's name as said at boot, and an index per collection
 * and number of dimensions (an embedding model's vectors all have one length; the table or index is
 * made the first time that length is used).
 */
export interface VectorIndexes {
  /** e.g. `libsql vector index`, `pgvector`, `memory`. */
  readonly engine: string;
  index(collection: string, dimensions: number): Promise<VectorIndex>;
  /** Removes the collection's entries carrying all these labels, whatever their dimensions; refuses an empty filter. */
  deleteWhere(collection: string, where: PassageFilter): Promise<number>;
}

/** Why a store answers no vectors: said at boot, e.g. "pgvector is not installed". */
export interface NoVectors {
  readonly reason: string;
}
