import { get, porterModule, recordsOf, TOKENS } from '../tokens.js';
import { KNOWLEDGE_TOKENS } from './knowledge-tokens.js';
import { USAGE_TOKENS } from './usage-tokens.js';
import type { KnowledgeDocumentPrimitives } from '../../domain/knowledge/knowledge-document.js';
import { KnowledgeBook } from '../../application/knowledge/knowledge-book.js';
import { KnowledgeAccess } from '../../application/knowledge/knowledge-access.js';
import { DocumentText } from '../../application/knowledge/document-text.js';
import { AddDocument } from '../../application/knowledge/add-document.js';
import { GetDocument, ListDocuments, RemoveDocument } from '../../application/knowledge/manage-documents.js';
import { ReadPassage, SearchKnowledge } from '../../application/knowledge/search-knowledge.js';
import { knowledgeTools } from '../../application/knowledge/knowledge-tools.js';
import { DEFAULT_MAX_DOCUMENT_BYTES, KNOWLEDGE_TEXT_COLLECTION } from '../../application/knowledge/knowledge-settings.js';
import type { StoredPassage } from '../../application/knowledge/stored-shapes.js';
import { HtmlTextExtractor } from '../../adapters/files/html-text-extractor.js';
import { UnpdfTextExtractor } from '../../adapters/files/unpdf-text-extractor.js';
import { knowledgeRoutes } from '../../adapters/http/routes/knowledge-routes.js';
import { storeTextIndex } from '../store-text-index.js';
import type { PorterConfig } from '../config/config-schema.js';
import { KnowledgeVectors } from '../../application/knowledge/knowledge-vectors.js';
import { AiSdkEmbedder } from '../../adapters/model/ai-sdk-embedder.js';
import { OtelTelemetry } from '../../adapters/telemetry/otel-telemetry.js';
import type { Telemetry } from '../../ports/telemetry.js';
import type { VectorIndexes } from '../../ports/vector-index.js';

/**
 * Knowledge: the documents the host gives Porter to answer from, their routes (always mounted:
 * managing them needs `knowledge.admin`, reading a cited passage only the caller's scope), and with
 * `knowledge` on, the agent's `knowledge_search`, whose passages are cited on the answer.
 */
export function knowledgeModule(config: PorterConfig['knowledge'], vectorIndexes: VectorIndexes | null = null) {
  return porterModule((bind) => {
    const access = new KnowledgeAccess(config ? config.admin : undefined, config ? config.org : undefined);
    bind.singleton(KNOWLEDGE_TOKENS.KnowledgeUseCases, (ctx) => {
      const store = get(ctx, TOKENS.Store);
      const telemetry = get(ctx, TOKENS.Telemetry);
      const embeddingModel = config ? config.embeddingModel : undefined;
      const vectors =
        embeddingModel && vectorIndexes
          ? new KnowledgeVectors({
              embedder: tracedEmbedder(new AiSdkEmbedder(embeddingModel), telemetry),
              indexes: vectorIndexes,
              meter: get(ctx, USAGE_TOKENS.UsageMeter),
            })
          : null;
      const book = new KnowledgeBook(
        recordsOf<KnowledgeDocumentPrimitives>(ctx, 'knowledge-documents'),
        recordsOf<StoredPassage>(ctx, 'knowledge-passages'),
        storeTextIndex(store, KNOWLEDGE_TEXT_COLLECTION),
        vectors,
      );
      const audit = get(ctx, TOKENS.AuditTrail);
      return {
        addDocument: new AddDocument({
          book,
          access,
          text: new DocumentText(
            [new HtmlTextExtractor(), new UnpdfTextExtractor()],
            config ? config.maxDocumentBytes : DEFAULT_MAX_DOCUMENT_BYTES,
          ),
          ids: get(ctx, TOKENS.Ids),
          clock: get(ctx, TOKENS.Clock),
          audit,
          telemetry,
        }),
        listDocuments: new ListDocuments(book, access),
        getDocument: new GetDocument(book, access),
        removeDocument: new RemoveDocument(book, access, audit),
        searchKnowledge: new SearchKnowledge(book, access, telemetry),
        readPassage: new ReadPassage(book, access),
      };
    });
    bind(TOKENS.WireRoutes).toDynamicValue((ctx) => knowledgeRoutes(get(ctx, KNOWLEDGE_TOKENS.KnowledgeUseCases)));
    if (!config) return;
    bind.singleton(TOKENS.PorterTools, (ctx) => knowledgeTools({ search: get(ctx, KNOWLEDGE_TOKENS.KnowledgeUseCases).searchKnowledge }));
  });
}

/** The embedding calls traced on Porter's tracer like the agent's model steps (their `ai.embedMany` spans under Porter's knowledge spans). */
function tracedEmbedder(embedder: AiSdkEmbedder, telemetry: Telemetry): AiSdkEmbedder {
  return telemetry instanceof OtelTelemetry ? embedder.traced(telemetry.tracer, telemetry.recordsContent) : embedder;
}
