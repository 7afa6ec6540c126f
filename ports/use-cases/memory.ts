import type { MemorySource } from '../../domain/memory/memory.js';
import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../use-case.js';

/** One memory as its person sees it. `revision` is what an edit names to say which version it changes. */
export interface MemoryView {
  readonly id: string;
  readonly text: string;
  readonly source: MemorySource;
  readonly revision: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface MemoryList {
  readonly memories: ReadonlyArray<MemoryView>;
  readonly nextCursor: string | null;
}

/** Everything a person's memories hold, to take away (`GET /memories/export`). */
export interface MemoryExport {
  readonly format: 'porter-memories';
  readonly version: 1;
  readonly exportedAt: string;
  readonly memories: ReadonlyArray<MemoryView>;
}

export interface MemoryEdit {
  readonly principal: Principal;
  readonly memoryId: string;
  readonly text: string;
  /** The revision the person edited; another one stored since is a 409 naming the current memory. */
  readonly revision: number;
}

export interface MemoryUseCases {
  readonly listMemories: UseCase<{ principal: Principal; limit?: number; cursor?: string | null }, MemoryList>;
  readonly getMemory: UseCase<{ principal: Principal; memoryId: string }, MemoryView>;
  readonly addMemory: UseCase<{ principal: Principal; text: string }, MemoryView>;
  readonly editMemory: UseCase<MemoryEdit, MemoryView>;
  readonly forgetMemory: UseCase<{ principal: Principal; memoryId: string }, void>;
  readonly exportMemories: UseCase<{ principal: Principal }, MemoryExport>;
}
