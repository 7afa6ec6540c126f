import { Conflict } from '../../domain/errors.js';
import { Memory, memoryText, type MemorySource } from '../../domain/memory/memory.js';
import type { Principal } from '../../domain/principal.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { MemoryView } from '../../ports/use-cases/memory.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { MemoryBook } from './memory-book.js';
import type { MemoryScopes } from './memory-scopes.js';
import { memoryView } from './memory-view.js';
import { defined } from '../../domain/defined.js';

/** A person's memories are full: forgetting one makes room. */
export class MemoryFull extends Conflict {
  constructor(max: number) {
    super(`This person keeps ${max} memories already, the most this host allows; forget one to make room`, { max });
  }
}

export interface SaveMemoryDeps {
  readonly book: MemoryBook;
  readonly scopes: MemoryScopes;
  readonly ids: Ids;
  readonly clock: Clock;
  readonly audit: AuditTrail;
  readonly maxPerPerson: number;
}

export interface SavedMemory {
  readonly memory: MemoryView;
  /** True when the person already kept a memory saying the same: that one is answered, nothing new is stored. */
  readonly existed: boolean;
}

/**
 * Keeps a new memory for the caller: the agent's `memory_save`, or the person on their page. Each
 * memory is a record of its own, so saves at the same moment (two turns, two tabs, two instances)
 * are separate inserts and every one is kept. A text the person already keeps is not stored twice.
 * The cap is checked before the insert: saves racing at the cap can pass it by as many as raced.
 */
export class SaveMemory {
  constructor(private readonly deps: SaveMemoryDeps) {}

  async execute(input: { principal: Principal; text: string; source: MemorySource }): Promise<SavedMemory> {
    const text = memoryText(input.text);
    const scope = await this.deps.scopes.of(input.principal);
    const kept = await this.deps.book.everyIn(scope);
    const same = kept.find((loaded) => loaded.memory.says(text));
    if (same) return { memory: memoryView(same), existed: true };
    if (kept.length >= this.deps.maxPerPerson) throw new MemoryFull(this.deps.maxPerPerson);
    const memory = Memory.remember({
      id: this.deps.ids.mint('memory'),
      scope,
      text,
      source: input.source,
      at: this.deps.clock.now().toISOString(),
    });
    await this.deps.book.save(memory);
    const saved = await this.deps.book.inScope(scope, memory.id);
    // Never the text: it is personal, and audit readers are not its audience.
    await this.deps.audit.record({
      subject: scope.owner,
      action: 'memory.saved',
      outcome: 'saved',
      details: { memoryId: memory.id, by: input.source.kind, ...defined({ org: scope.org || undefined }) },
    });
    return { memory: memoryView(saved), existed: false };
  }
}
