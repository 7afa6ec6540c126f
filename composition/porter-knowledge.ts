import { NotFound } from '../domain/errors.js';
import type { Principal } from '../domain/principal.js';
import type {
  KnowledgeDocumentList,
  KnowledgeDocumentView,
  KnowledgeHit,
  KnowledgeUseCases,
  NewDocument,
} from '../ports/use-cases/knowledge.js';
import { defined } from '../domain/defined.js';

/**
 * `porter.knowledge`: the documents the agent answers from, managed by the host itself (no admin
 * check: the host is the one who decides). A refusal throws Porter's error (`code` `validation`
 * for a document without words or a PDF that is not one, `payload-too-large` past
 * `knowledge.maxDocumentBytes`).
 */
export interface PorterKnowledge {
  /** Adds a document: its text pulled out, cut into passages and indexed. Scoped to everyone unless `scope` says otherwise. */
  add(document: NewDocument): Promise<KnowledgeDocumentView>;
  /** Every document, newest first, a page at a time. */
  list(page?: { readonly limit?: number; readonly cursor?: string | null }): Promise<KnowledgeDocumentList>;
  /** Removes a document: false when there was none with that id. */
  remove(documentId: string): Promise<boolean>;
  /** What `knowledge_search` would find for this person: passages of documents within their scopes, best first. */
  search(principal: Principal, query: string, limit?: number): Promise<KnowledgeHit[]>;
}

export function porterKnowledge(useCases: KnowledgeUseCases): PorterKnowledge {
  return {
    add: (document) => useCases.addDocument.execute({ by: 'host', ...document }),
    list: (page = {}) =>
      useCases.listDocuments.execute({
        by: 'host',
        ...defined({ limit: page.limit, cursor: page.cursor }),
      }),
    async remove(documentId) {
      try {
        await useCases.removeDocument.execute({ by: 'host', documentId });
        return true;
      } catch (error) {
        if (error instanceof NotFound) return false;
        throw error;
      }
    },
    search: (principal, query, limit) => useCases.searchKnowledge.execute({ principal, query, ...defined({ limit }) }),
  };
}
