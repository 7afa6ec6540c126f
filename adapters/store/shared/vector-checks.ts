import { InvalidInput } from '../../../domain/errors.js';
import type { VectorEntry } from '../../../ports/vector-index.js';
import { assertStorablePassage } from './text-filter.js';

/** The most dimensions a vector index takes (libsql's F32_BLOB and pgvector's `vector` both allow more; no embedding model needs more). */
export const MAX_DIMENSIONS = 16_000;

/** Refuses a number of dimensions a table cannot be made for. */
export function assertDimensions(dimensions: number): void {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > MAX_DIMENSIONS)
    throw new InvalidInput(`An embedding has 1 to ${MAX_DIMENSIONS} dimensions; this one has ${dimensions}`);
}

/** Refuses an entry whose vector is not `dimensions` finite numbers, or whose id or labels a database could not keep. */
export function assertVector(vector: ReadonlyArray<number>, dimensions: number): void {
  if (vector.length !== dimensions) throw new InvalidInput(`An embedding of ${vector.length} dimensions, in an index of ${dimensions}`);
  if (!vector.every((value) => Number.isFinite(value))) throw new InvalidInput('An embedding holds a number that is not finite');
}

export function assertEntry(entry: VectorEntry, dimensions: number): void {
  assertStorablePassage({ id: entry.id, refs: entry.refs, text: '' });
  assertVector(entry.vector, dimensions);
}

/** The vector as the engines read it from text: `[0.1,0.2,…]`. */
export function vectorText(vector: ReadonlyArray<number>): string {
  return `[${vector.join(',')}]`;
}

/** Cosine distance, as the engines compute it: 1 − cos; a zero vector is at distance 1 from everything. */
export function cosineDistance(a: ReadonlyArray<number>, b: ReadonlyArray<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 1 : 1 - dot / Math.sqrt(na * nb);
}
