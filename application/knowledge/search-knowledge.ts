import { NotFound } from '../../domain/errors.js';
import { MEDIA_TYPE_OF, passageRef, type KnowledgeDocument } from '../../domain/knowledge/knowledge-document.js';
import type { Principal } from '../../domain/principal.js';
import type { Telemetry } from '../../ports/telemetry.js';
import type { UseCase } from '../../ports/use-case.js';
import type { KnowledgeHit, PassageView } from '../../ports/use-cases/knowledge.js';
import type { KnowledgeAccess } from './knowledge-access.js';
import type { KnowledgeBook } from './knowledge-book.js';
import { MAX_SEARCH_HITS } from './knowledge-settings.js';
import { defined } from '../../domain/defined.js';

/**
 * The caller's best passages for a query, ranked by the text index (FTS5's bm25, PostgreSQL's
 * ts_rank): only documents scoped to everyone, to the caller, or to the org the host names for
 * them are searched, and each hit's document is read again and checked, so a document removed (or
 * re-scoped) mid-search is never answered.
 */
export class SearchKnowledge implements UseCase<{ principal: Principal; query: string; limit?: number }, KnowledgeHit[]> {
  constructor(
    private readonly book: KnowledgeBook,
    private readonly access: KnowledgeAccess,
    private readonly telemetry: Telemetry,
  ) {}

  execute(input: { principal: Principal; query: string; limit?: number }): Promise<KnowledgeHit[]> {
    const limit = Math.min(Math.max(1, input.limit ?? 5), MAX_SEARCH_HITS);
    return this.telemetry.span('porter.knowledge.search', { 'porter.knowledge.limit': limit }, async (span) => {
      const labels = await this.access.labelsOf(input.principal);
      const { hits, retrieval, tokens, fullTextOnly } = await this.book.search(input.query, labels, limit, input.principal);
      span.set({
        'porter.knowledge.retrieval': retrieval,
        ...defined({
          'porter.knowledge.embedding.tokens': this.book.retrieval === 'hybrid' ? tokens : undefined,
          'porter.knowledge.full_text_only': fullTextOnly,
        }),
      });
      const documents = new Map<string, KnowledgeDocument | null>();
      for (const id of new Set(hits.map((hit) => hit.refs.document ?? ''))) {
        const loaded = id ? await this.book.find(id) : null;
        documents.set(id, loaded && loaded.document.isWithin(labels) ? loaded.document : null);
      }
      const found = await Promise.all(
        hits.map(async (hit): Promise<KnowledgeHit | null> => {
          const document = documents.get(hit.refs.document ?? '');
          const view = document ? await passageOf(this.book, document, hit.id) : null;
          return view ? { ...view, snippet: hit.snippet || openingWords(view.text) } : null;
        }),
      );
      const answered = found.filter((hit): hit is KnowledgeHit => hit !== null);
      span.set({ 'porter.knowledge.hits': answered.length });
      return answered;
    });
  }
}

/** `GET /knowledge/passages/:id`: one passage a citation points at, when its document is within the caller's scopes. */
export class ReadPassage implements UseCase<{ principal: Principal; passageId: string }, PassageView> {
  constructor(
    private readonly book: KnowledgeBook,
    private readonly access: KnowledgeAccess,
  ) {}

  async execute(input: { principal: Principal; passageId: string }): Promise<PassageView> {
    const ref = passageRef(input.passageId);
    const loaded = ref ? await this.book.find(ref.documentId) : null;
    // Another scope's passage is not-found, exactly like one that never was.
    if (!loaded || !loaded.document.isWithin(await this.access.labelsOf(input.principal))) throw new NotFound('Passage');
    const view = await passageOf(this.book, loaded.document, input.passageId);
    if (!view) throw new NotFound('Passage');
    return view;
  }
}

async function passageOf(book: KnowledgeBook, document: KnowledgeDocument, passageId: string): Promise<PassageView | null> {
  const ref = passageRef(passageId);
  const place = ref && ref.documentId === document.id ? document.passage(ref.index) : null;
  const text = place ? await book.passageText(passageId) : null;
  if (!place || text === null) return null;
  const props = document.toPrimitives();
  return {
    id: place.id,
    documentId: document.id,
    title: props.title,
    mediaType: MEDIA_TYPE_OF[props.format],
    start: place.start,
    end: place.end,
    text,
  };
}

/** A passage found by meaning alone has no matched words to show around: its first words stand in. */
function openingWords(text: string): string {
  const words = text.trim().split(/\s+/);
  return words.length > SNIPPET_WORDS ? `${words.slice(0, SNIPPET_WORDS).join(' ')}…` : words.join(' ');
}

const SNIPPET_WORDS = 16;
