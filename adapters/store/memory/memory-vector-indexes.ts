import type { PassageFilter } from '../../../ports/text-index.js';
import type { VectorEntry, VectorHit, VectorIndex, VectorIndexes, VectorSearch } from '../../../ports/vector-index.js';
import { assertDeleteFilter, hitLimit, matchesFilter } from '../shared/text-filter.js';
import { assertDimensions, assertEntry, assertVector, cosineDistance } from '../shared/vector-checks.js';

/** Vectors in memory, searched exactly (a scan): the memory store's, for tests and the development host. */
export class MemoryVectorIndexes implements VectorIndexes {
  readonly engine = 'memory';
  private readonly tables = new Map<string, Map<string, VectorEntry>>();

  async index(collection: string, dimensions: number): Promise<VectorIndex> {
    assertDimensions(dimensions);
    const key = `${dimensions}:${collection}`;
    let table = this.tables.get(key);
    if (!table) this.tables.set(key, (table = new Map()));
    return new MemoryVectorIndex(table, dimensions);
  }

  async deleteWhere(collection: string, where: PassageFilter): Promise<number> {
    assertDeleteFilter(where);
    let removed = 0;
    for (const [key, table] of this.tables) {
      if (key.slice(key.indexOf(':') + 1) !== collection) continue;
      for (const [id, entry] of table) if (matchesFilter(entry.refs, where) && table.delete(id)) removed++;
    }
    return removed;
  }
}

class MemoryVectorIndex implements VectorIndex {
  constructor(
    private readonly entries: Map<string, VectorEntry>,
    private readonly dimensions: number,
  ) {}

  async put(entries: ReadonlyArray<VectorEntry>): Promise<void> {
    for (const entry of entries) assertEntry(entry, this.dimensions);
    for (const entry of entries) this.entries.set(entry.id, { id: entry.id, refs: { ...entry.refs }, vector: [...entry.vector] });
  }

  async search({ vector, where, limit }: VectorSearch): Promise<VectorHit[]> {
    assertVector(vector, this.dimensions);
    const most = hitLimit(limit);
    return [...this.entries.values()]
      .filter((entry) => matchesFilter(entry.refs, where))
      .map((entry) => ({ id: entry.id, refs: { ...entry.refs }, distance: cosineDistance(vector, entry.vector) }))
      .sort((a, b) => a.distance - b.distance || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, most);
  }
}
