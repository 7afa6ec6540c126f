import { recallBlock, recallWithin, termsOf, type Recallable } from '../../domain/memory/recall.js';
import type { Principal } from '../../domain/principal.js';
import type { MemoryBook } from './memory-book.js';
import type { MemoryScopes } from './memory-scopes.js';
import type { HeldDeletions } from '../deletions/deletable.js';

/** How many memories' words one instance keeps at most. */
const TERMS_CACHED = 50_000;

/**
 * What a turn recalls: the person's memories that share words with their message, best first,
 * within the host's token budget, as a delimited block of data the model is told is not
 * instructions (domain/memory/recall.ts). Nothing when none bears on the message.
 */
export class RecallMemories {
  /** Each memory's words, by id and revision time: every turn scores all of a person's memories, whose words rarely change. */
  private readonly terms = new Map<string, ReadonlySet<string>>();

  constructor(
    private readonly book: MemoryBook,
    private readonly scopes: MemoryScopes,
    private readonly recallTokens: number,
    private readonly held?: HeldDeletions,
  ) {}

  async forTurn(principal: Principal, message: string): Promise<string | null> {
    if (this.recallTokens <= 0 || message.trim() === '') return null;
    const every = (await this.book.everyIn(await this.scopes.of(principal))).map(({ memory }) => memory);
    // Nothing to recall spares the read of what is being deleted.
    if (every.length === 0) return null;
    // A memory the person is deleting is never recalled, even within its undo window.
    const held = (await this.held?.heldIds(principal.subject, 'memory')) ?? new Set<string>();
    const memories = every.filter((memory) => !held.has(memory.id));
    const recalled = recallWithin(memories, message, this.recallTokens, (memory) => this.termsOf(memory));
    return recalled.length > 0 ? recallBlock(recalled.map((memory) => memory.text)) : null;
  }

  private termsOf(memory: Recallable): ReadonlySet<string> {
    const key = `${memory.id}@${memory.updatedAt}`;
    let terms = this.terms.get(key);
    if (!terms) {
      // Bounded: a busy instance starts afresh rather than growing without end.
      if (this.terms.size >= TERMS_CACHED) this.terms.clear();
      this.terms.set(key, (terms = termsOf(memory.text)));
    }
    return terms;
  }
}
