import type { Principal } from '../domain/principal.js';

/**
 * The host's answer to "may this person manage the documents Porter answers from?"
 * (`knowledge.admin`): add, list and remove them over the wire. Never asked for an anonymous session.
 */
export type KnowledgeAdminOf = (principal: Principal) => boolean | Promise<boolean>;

/**
 * The host's answer to "in which org is this person acting?" (`knowledge.org`): documents scoped to
 * that org are answered from for them, those of any other org never. Null or undefined: none.
 */
export type KnowledgeOrgOf = (principal: Principal) => string | null | undefined | Promise<string | null | undefined>;
