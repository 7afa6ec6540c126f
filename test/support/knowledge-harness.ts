import { StoreAuditLog } from '../../adapters/audit/store-audit-log.js';
import { UlidIds } from '../../adapters/runtime/ulid-ids.js';
import { NoTelemetry } from '../../adapters/telemetry/no-telemetry.js';
import { HtmlTextExtractor } from '../../adapters/files/html-text-extractor.js';
import { AuditTrail } from '../../application/audit/audit-trail.js';
import { AddDocument } from '../../application/knowledge/add-document.js';
import { DocumentText } from '../../application/knowledge/document-text.js';
import { KnowledgeAccess } from '../../application/knowledge/knowledge-access.js';
import { KnowledgeBook } from '../../application/knowledge/knowledge-book.js';
import { knowledgeTools } from '../../application/knowledge/knowledge-tools.js';
import { ListDocuments, RemoveDocument } from '../../application/knowledge/manage-documents.js';
import { ReadPassage, SearchKnowledge } from '../../application/knowledge/search-knowledge.js';
import type { StoredPassage } from '../../application/knowledge/stored-shapes.js';
import type { KnowledgeDocumentPrimitives } from '../../domain/knowledge/knowledge-document.js';
import { storeTextIndex } from '../../composition/store-text-index.js';
import { RecordingLogger } from './fakes.js';
import type { Store } from '../../ports/store.js';
import type { ManualClock } from './manual-clock.js';

/** The knowledge family's use cases over one store, as knowledge-module.ts wires them. */
export function knowledgeOn(store: Store, clock: ManualClock) {
  const ids = new UlidIds();
  const audit = new AuditTrail({ sink: new StoreAuditLog(store), ids, clock, logger: new RecordingLogger() });
  const book = new KnowledgeBook(
    store.records<KnowledgeDocumentPrimitives>('knowledge-documents'),
    store.records<StoredPassage>('knowledge-passages'),
    storeTextIndex(store, 'knowledge'),
  );
  const access = new KnowledgeAccess(
    (principal) => principal.subject === 'admin',
    () => null,
  );
  const telemetry = new NoTelemetry();
  const search = new SearchKnowledge(book, access, telemetry);
  return {
    store,
    add: new AddDocument({ book, access, text: new DocumentText([new HtmlTextExtractor()], 64 * 1024), ids, clock, audit, telemetry }),
    list: new ListDocuments(book, access),
    remove: new RemoveDocument(book, access, audit),
    search,
    read: new ReadPassage(book, access),
    tool: knowledgeTools({ search })[0]!,
  };
}
