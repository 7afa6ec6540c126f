import { relevantTo } from '../../domain/memory/recall.js';
import type { Principal } from '../../domain/principal.js';
import type { MemoryView } from '../../ports/use-cases/memory.js';
import type { MemoryBook } from './memory-book.js';
import type { MemoryScopes } from './memory-scopes.js';
import { memoryView } from './memory-view.js';

/** The caller's memories that bear on a query, best first: what `memory_search` answers. */
export class SearchMemories {
  constructor(
    private readonly book: MemoryBook,
    private readonly scopes: MemoryScopes,
  ) {}

  async execute(input: { principal: Principal; query: string; limit: number }): Promise<MemoryView[]> {
    const views = (await this.book.everyIn(await this.scopes.of(input.principal))).map(memoryView);
    return relevantTo(views, input.query).slice(0, input.limit);
  }
}
