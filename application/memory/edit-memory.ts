import { Conflict } from '../../domain/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { UseCase } from '../../ports/use-case.js';
import type { MemoryEdit, MemoryView } from '../../ports/use-cases/memory.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { MemoryBook } from './memory-book.js';
import type { MemoryScopes } from './memory-scopes.js';
import { memoryView } from './memory-view.js';

/** An edit made against a revision that is no longer the memory's: it says so, with what is there now, instead of overwriting it. */
export class MemoryChangedMeanwhile extends Conflict {
  constructor(current: MemoryView) {
    super('This memory was changed since you opened it; nothing was overwritten. Here is what it says now.', { current });
  }
}

/**
 * `PATCH /memories/:id`: the person's new text, written only over the revision they edited (a
 * compare-and-swap, so of two racing edits exactly one lands and the other is told).
 */
export class EditMemory implements UseCase<MemoryEdit, MemoryView> {
  constructor(
    private readonly book: MemoryBook,
    private readonly scopes: MemoryScopes,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  async execute(input: MemoryEdit): Promise<MemoryView> {
    const scope = await this.scopes.of(input.principal);
    const loaded = await this.book.inScope(scope, input.memoryId);
    if (loaded.record.revision !== input.revision) throw new MemoryChangedMeanwhile(memoryView(loaded));
    const next = loaded.memory.rewrite(input.text, this.clock.now().toISOString());
    if (next === loaded.memory) return memoryView(loaded);
    const swapped = await this.book.swap(loaded, next);
    if (!swapped) throw new MemoryChangedMeanwhile(memoryView(await this.book.inScope(scope, input.memoryId)));
    await this.audit.record({ subject: scope.owner, action: 'memory.edited', outcome: 'edited', details: { memoryId: next.id } });
    return memoryView(swapped);
  }
}
