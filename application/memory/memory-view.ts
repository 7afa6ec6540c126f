import type { MemoryView } from '../../ports/use-cases/memory.js';
import type { LoadedMemory } from './memory-book.js';

/** A memory as its person sees it, with the revision an edit must name. */
export function memoryView({ memory, record }: LoadedMemory): MemoryView {
  return {
    id: memory.id,
    text: memory.text,
    source: memory.source,
    revision: record.revision,
    createdAt: memory.createdAt,
    updatedAt: memory.updatedAt,
  };
}
