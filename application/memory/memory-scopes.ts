import type { MemoryScope } from '../../domain/memory/memory.js';
import type { Principal } from '../../domain/principal.js';
import type { MemoryOrgOf } from '../../ports/memory-org.js';

/** The longest org name a host may keep memories under. */
const ORG_LIMIT = 256;

/** Whose memories a caller reaches: always their own subject's, and only their org's when the host keeps them per org. */
export class MemoryScopes {
  constructor(private readonly orgOf: MemoryOrgOf | undefined) {}

  async of(principal: Principal): Promise<MemoryScope> {
    if (!this.orgOf) return { owner: principal.subject, org: null };
    const org = await this.orgOf(principal);
    if (org === null || org === undefined || org === '') return { owner: principal.subject, org: null };
    // The host's function, not the caller, names the org: a wrong answer is the host's bug (a logged 500).
    if (typeof org !== 'string' || org.length > ORG_LIMIT)
      throw new Error(`memory.org must answer a string of at most ${ORG_LIMIT} characters, or null`);
    return { owner: principal.subject, org };
  }
}
