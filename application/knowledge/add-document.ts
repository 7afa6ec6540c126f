import { chunkText, DEFAULT_CHUNK } from '../../domain/knowledge/chunking.js';
import { documentScope, documentTitle, KnowledgeDocument } from '../../domain/knowledge/knowledge-document.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { Telemetry } from '../../ports/telemetry.js';
import type { KnowledgeDocumentView, KnowledgeManager, NewDocument } from '../../ports/use-cases/knowledge.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { DocumentText } from './document-text.js';
import type { KnowledgeAccess } from './knowledge-access.js';
import type { KnowledgeBook } from './knowledge-book.js';
import { knowledgeDocumentView } from './knowledge-view.js';

export interface AddDocumentDeps {
  readonly book: KnowledgeBook;
  readonly access: KnowledgeAccess;
  readonly text: DocumentText;
  readonly ids: Ids;
  readonly clock: Clock;
  readonly audit: AuditTrail;
  readonly telemetry: Telemetry;
}

/**
 * `porter.knowledge.add` and `POST /knowledge/documents`: a document's text pulled out of what
 * was given, cut into overlapping passages (domain/knowledge/chunking.ts), each kept and indexed.
 * Its title and scope are checked before anything is read, its size before anything is stored.
 */
export class AddDocument {
  constructor(private readonly deps: AddDocumentDeps) {}

  async execute(input: { by: KnowledgeManager } & NewDocument): Promise<KnowledgeDocumentView> {
    await this.deps.access.assertManager(input.by);
    const title = documentTitle(input.title);
    const scope = documentScope(input.scope ?? { kind: 'everyone' });
    return this.deps.telemetry.span('porter.knowledge.add', { 'porter.knowledge.format': input.format }, async (span) => {
      const { text, bytes } = await this.deps.text.of(input.format, input.content);
      const document = KnowledgeDocument.of({
        id: this.deps.ids.mint('document'),
        title,
        format: input.format,
        scope,
        bytes,
        text,
        spans: chunkText(text, DEFAULT_CHUNK),
        at: this.deps.clock.now().toISOString(),
      });
      span.set({
        'porter.knowledge.document.id': document.id,
        'porter.knowledge.passages': document.passageCount,
        'porter.knowledge.bytes': bytes,
      });
      const tokens = await this.deps.book.add(document, text, input.by === 'host' ? null : input.by);
      if (this.deps.book.retrieval === 'hybrid') span.set({ 'porter.knowledge.embedding.tokens': tokens });
      if (input.by !== 'host')
        await this.deps.audit.record({
          subject: input.by.subject,
          action: 'knowledge.added',
          outcome: 'added',
          details: { documentId: document.id, scope: scope.kind },
        });
      return knowledgeDocumentView(await this.deps.book.get(document.id));
    });
  }
}
