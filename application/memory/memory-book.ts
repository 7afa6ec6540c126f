import { NotFound } from '../../domain/errors.js';
import { Memory, type MemoryPrimitives, type MemoryScope } from '../../domain/memory/memory.js';
import type { RecordSet } from '../../ports/store.js';
import { AggregateBook, asPrimitives, type Loaded, type LoadedPage } from '../shared/aggregate-book.js';
import { memoryShape } from './stored-shapes.js';

export type LoadedMemory = Loaded<'memory', Memory, MemoryPrimitives>;

/** The refs a scope's memories are listed by: the subject, and the org ('' for none). */
function refsOfScope(scope: MemoryScope): Record<string, string> {
  return { owner: scope.owner, org: scope.org ?? '' };
}

/**
 * Memories in the store, one record each (so two saves at once are two inserts, and an edit is a
 * compare-and-swap on one memory's revision), listed by their scope.
 */
export class MemoryBook extends AggregateBook<'memory', Memory, MemoryPrimitives> {
  constructor(records: RecordSet<MemoryPrimitives>) {
    super(records, {
      collection: 'memories',
      key: 'memory',
      noun: 'Memory',
      schema: memoryShape,
      ...asPrimitives(Memory),
      refsOf: (props) => refsOfScope(props),
      ownerOf: (memory) => memory.owner,
    });
  }

  /** The scope's memory, or not-found: another person's (or another org's) is never revealed. */
  async inScope(scope: MemoryScope, id: string): Promise<LoadedMemory> {
    const loaded = await this.find(id);
    if (!loaded || !loaded.memory.isIn(scope)) throw new NotFound('Memory');
    return loaded;
  }

  /** One page of the scope's memories, newest first. */
  pageOf(scope: MemoryScope, limit: number, cursor: string | null): Promise<LoadedPage<LoadedMemory>> {
    return this.list(refsOfScope(scope), limit, cursor);
  }

  /** Every memory of the scope (a person keeps at most `maxPerPerson`, give or take racing saves). */
  everyIn(scope: MemoryScope): Promise<LoadedMemory[]> {
    return this.all(refsOfScope(scope));
  }

  /** Every memory a subject keeps, under any org: what adoption moves. */
  everyOf(owner: string): Promise<LoadedMemory[]> {
    return this.all({ owner });
  }

  async remove(loaded: LoadedMemory): Promise<boolean> {
    return this.records.delete(loaded.record.id);
  }
}
