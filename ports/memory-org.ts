import type { Principal } from '../domain/principal.js';

/**
 * The host's answer to "under which org are this person's memories kept?" (`memory.org`). A
 * string keeps them per org: memories saved under one org are never recalled, listed or changed
 * under another. Null or undefined keeps them under the person alone.
 */
export type MemoryOrgOf = (principal: Principal) => string | null | undefined | Promise<string | null | undefined>;
