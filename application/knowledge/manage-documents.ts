import type { UseCase } from '../../ports/use-case.js';
import type { KnowledgeDocumentList, KnowledgeDocumentView, KnowledgeManager } from '../../ports/use-cases/knowledge.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { KnowledgeAccess } from './knowledge-access.js';
import type { KnowledgeBook } from './knowledge-book.js';
import { knowledgeDocumentView } from './knowledge-view.js';

/** `GET /knowledge/documents` and `porter.knowledge.list`: every document, newest first, for its managers. */
export class ListDocuments implements UseCase<{ by: KnowledgeManager; limit?: number; cursor?: string | null }, KnowledgeDocumentList> {
  constructor(
    private readonly book: KnowledgeBook,
    private readonly access: KnowledgeAccess,
  ) {}

  async execute(input: { by: KnowledgeManager; limit?: number; cursor?: string | null }): Promise<KnowledgeDocumentList> {
    await this.access.assertManager(input.by);
    const page = await this.book.page(input.limit ?? 50, input.cursor ?? null);
    return { documents: page.items.map(knowledgeDocumentView), nextCursor: page.nextCursor };
  }
}

/** `GET /knowledge/documents/:id`. */
export class GetDocument implements UseCase<{ by: KnowledgeManager; documentId: string }, KnowledgeDocumentView> {
  constructor(
    private readonly book: KnowledgeBook,
    private readonly access: KnowledgeAccess,
  ) {}

  async execute(input: { by: KnowledgeManager; documentId: string }): Promise<KnowledgeDocumentView> {
    await this.access.assertManager(input.by);
    return knowledgeDocumentView(await this.book.get(input.documentId));
  }
}

/** `DELETE /knowledge/documents/:id` and `porter.knowledge.remove`: never answered from again, at once. */
export class RemoveDocument implements UseCase<{ by: KnowledgeManager; documentId: string }, void> {
  constructor(
    private readonly book: KnowledgeBook,
    private readonly access: KnowledgeAccess,
    private readonly audit: AuditTrail,
  ) {}

  async execute(input: { by: KnowledgeManager; documentId: string }): Promise<void> {
    await this.access.assertManager(input.by);
    const loaded = await this.book.get(input.documentId);
    await this.book.remove(loaded);
    if (input.by !== 'host')
      await this.audit.record({
        subject: input.by.subject,
        action: 'knowledge.removed',
        outcome: 'removed',
        details: { documentId: loaded.document.id },
      });
  }
}
