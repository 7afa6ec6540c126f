import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../../ports/use-case.js';
import type { MemoryList } from '../../ports/use-cases/memory.js';
import type { MemoryBook } from './memory-book.js';
import type { MemoryScopes } from './memory-scopes.js';
import { memoryView } from './memory-view.js';
import type { HeldDeletions } from '../deletions/deletable.js';

/** `GET /memories`: the caller's memories, newest first. */
export class ListMemories implements UseCase<{ principal: Principal; limit?: number; cursor?: string | null }, MemoryList> {
  constructor(
    private readonly book: MemoryBook,
    private readonly scopes: MemoryScopes,
    private readonly held?: HeldDeletions,
  ) {}

  async execute(input: { principal: Principal; limit?: number; cursor?: string | null }): Promise<MemoryList> {
    const page = await this.book.pageOf(await this.scopes.of(input.principal), input.limit ?? 50, input.cursor ?? null);
    // One waiting out its undo window is left out.
    const held = (await this.held?.heldIds(input.principal.subject, 'memory')) ?? new Set<string>();
    return { memories: page.items.filter((loaded) => !held.has(loaded.memory.id)).map(memoryView), nextCursor: page.nextCursor };
  }
}
