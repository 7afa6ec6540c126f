import { token } from '../tokens.js';
import type { MemoryBook } from '../../application/memory/memory-book.js';
import type { MemoryScopes } from '../../application/memory/memory-scopes.js';
import type { MemoryUseCases } from '../../ports/use-cases/memory.js';
import type { TurnRecall } from '../../application/threads/turn-steps.js';

/** Memory: what memory-module.ts binds. */
export const MEMORY_TOKENS = {
  MemoryBook: token<MemoryBook>('MemoryBook'),
  MemoryScopes: token<MemoryScopes>('MemoryScopes'),
  MemoryUseCases: token<MemoryUseCases>('MemoryUseCases'),
  /** What a turn recalls of the person's memories (bound only when `memory` is on). */
  TurnRecall: token<TurnRecall>('TurnRecall'),
};
