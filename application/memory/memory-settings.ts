import type { MemoryOrgOf } from '../../ports/memory-org.js';

/** The host's memory options (`memory` in the config). */
export interface MemorySettings {
  /** The agent keeps and recalls memories (its tools are registered, turns recall). */
  readonly enabled: boolean;
  /** Most tokens of memories recalled into one turn; 0 recalls none. */
  readonly recallTokens: number;
  /** Most memories one person keeps (per org, when kept per org). */
  readonly maxPerPerson: number;
  /** Keeps memories per org when the host says which (see MemoryOrgOf). */
  readonly org?: MemoryOrgOf;
}

export const DEFAULT_RECALL_TOKENS = 400;
export const DEFAULT_MAX_MEMORIES_PER_PERSON = 200;
