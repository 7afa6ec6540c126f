import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../../ports/use-case.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { MemoryBook } from './memory-book.js';
import type { MemoryScopes } from './memory-scopes.js';
import type { MemoryView } from '../../ports/use-cases/memory.js';
import { memoryView } from './memory-view.js';

/** `DELETE /memories/:id` and the agent's `memory_forget`: gone at once, never recalled again. */
export class ForgetMemory implements UseCase<{ principal: Principal; memoryId: string }, void> {
  constructor(
    private readonly book: MemoryBook,
    private readonly scopes: MemoryScopes,
    private readonly audit: AuditTrail,
  ) {}

  async execute(input: { principal: Principal; memoryId: string }): Promise<void> {
    await this.forget(input);
  }

  /** Forgets the memory and answers what it said (the agent's tool shows the person what went). */
  async forget(input: { principal: Principal; memoryId: string; by?: 'agent' | 'person' }): Promise<MemoryView> {
    const scope = await this.scopes.of(input.principal);
    const loaded = await this.book.inScope(scope, input.memoryId);
    await this.book.remove(loaded);
    await this.audit.record({
      subject: scope.owner,
      action: 'memory.forgotten',
      outcome: 'forgotten',
      details: { memoryId: loaded.memory.id, by: input.by ?? 'person' },
    });
    return memoryView(loaded);
  }
}
