import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../../ports/use-case.js';
import type { MemoryView } from '../../ports/use-cases/memory.js';
import type { MemoryBook } from './memory-book.js';
import type { MemoryScopes } from './memory-scopes.js';
import { memoryView } from './memory-view.js';

/** `GET /memories/:id`: one of the caller's memories; anyone else's is 404. */
export class GetMemory implements UseCase<{ principal: Principal; memoryId: string }, MemoryView> {
  constructor(
    private readonly book: MemoryBook,
    private readonly scopes: MemoryScopes,
  ) {}

  async execute(input: { principal: Principal; memoryId: string }): Promise<MemoryView> {
    return memoryView(await this.book.inScope(await this.scopes.of(input.principal), input.memoryId));
  }
}
