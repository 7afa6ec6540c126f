import { Forbidden } from '../../domain/errors.js';
import { scopeLabel } from '../../domain/knowledge/knowledge-document.js';
import type { Principal } from '../../domain/principal.js';
import type { KnowledgeAdminOf, KnowledgeOrgOf } from '../../ports/knowledge-access.js';
import type { KnowledgeManager } from '../../ports/use-cases/knowledge.js';

/** The longest org name a host may scope documents to. */
const ORG_LIMIT = 512;

export class NotKnowledgeAdmin extends Forbidden {
  constructor() {
    super("Managing the documents Porter answers from needs the host's knowledge.admin to answer true for the caller");
  }
}

/**
 * Who reaches which documents: every caller those scoped to everyone and to themselves, and those of
 * the org the host's `knowledge.org` names for them; who manages them: the host, and the people its
 * `knowledge.admin` answers true for (never an anonymous session).
 */
export class KnowledgeAccess {
  constructor(
    private readonly adminOf: KnowledgeAdminOf | undefined,
    private readonly orgOf: KnowledgeOrgOf | undefined,
  ) {}

  /** The scope labels of the documents this caller may be answered from. */
  async labelsOf(principal: Principal): Promise<string[]> {
    const labels = [scopeLabel({ kind: 'everyone' }), scopeLabel({ kind: 'person', subject: principal.subject })];
    const org = this.orgOf ? await this.orgOf(principal) : null;
    if (org === null || org === undefined || org === '') return labels;
    // The host's function, not the caller, names the org: a wrong answer is the host's bug (a logged 500).
    if (typeof org !== 'string' || org.length > ORG_LIMIT)
      throw new Error(`knowledge.org must answer a string of at most ${ORG_LIMIT} characters, or null`);
    return [...labels, scopeLabel({ kind: 'org', org })];
  }

  /** Refuses a manager the host did not make one. */
  async assertManager(by: KnowledgeManager): Promise<void> {
    if (by === 'host') return;
    if (by.anonymous || !this.adminOf || (await this.adminOf(by)) !== true) throw new NotKnowledgeAdmin();
  }
}
