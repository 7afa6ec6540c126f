import type { Principal } from '../../domain/principal.js';
import type { Clock } from '../../ports/clock.js';
import type { UseCase } from '../../ports/use-case.js';
import type { MemoryExport } from '../../ports/use-cases/memory.js';
import type { MemoryBook } from './memory-book.js';
import type { MemoryScopes } from './memory-scopes.js';
import { memoryView } from './memory-view.js';

/** `GET /memories/export`: every memory the caller keeps, as one JSON document to take away. */
export class ExportMemories implements UseCase<{ principal: Principal }, MemoryExport> {
  constructor(
    private readonly book: MemoryBook,
    private readonly scopes: MemoryScopes,
    private readonly clock: Clock,
  ) {}

  async execute(input: { principal: Principal }): Promise<MemoryExport> {
    const memories = await this.book.everyIn(await this.scopes.of(input.principal));
    return { format: 'porter-memories', version: 1, exportedAt: this.clock.now().toISOString(), memories: memories.map(memoryView) };
  }
}
