import { NotFound } from '../../domain/errors.js';
import { KnowledgeDocument, passageRef, scopeLabel, type KnowledgeDocumentPrimitives } from '../../domain/knowledge/knowledge-document.js';
import { fuseRankings } from '../../domain/knowledge/rank-fusion.js';
import type { Payer } from '../../domain/usage/payer.js';
import type { RecordSet } from '../../ports/store.js';
import type { TextHit, TextIndex } from '../../ports/text-index.js';
import { AggregateBook, asPrimitives, type Loaded, type LoadedPage } from '../shared/aggregate-book.js';
import { StoredShapeInvalid } from '../shared/stored-shape-invalid.js';
import type { FullTextOnly, KnowledgeVectors } from './knowledge-vectors.js';
import { knowledgeDocumentShape, storedPassageShape, type StoredPassage } from './stored-shapes.js';

export type LoadedDocument = Loaded<'document', KnowledgeDocument, KnowledgeDocumentPrimitives>;

/** Passage records written or removed at once. */
const BATCH = 16;

/** Candidates each ranking gives the fusion, per hit wanted, and at most. */
const CANDIDATES_PER_HIT = 4;
const MAX_CANDIDATES = 50;

/** What a search found, how, and the embedding tokens it spent. */
export interface KnowledgeSearch {
  readonly hits: TextHit[];
  readonly retrieval: 'hybrid' | 'full-text';
  readonly tokens: number;
  /** Why hybrid retrieval answered with full text alone this time. */
  readonly fullTextOnly?: FullTextOnly;
}

/**
 * The documents Porter answers from: one record each (its title, scope and where its passages
 * lie), each passage's text as a record of its own (read when it is cited), and every passage in
 * the text index's `knowledge` collection, labelled with its document and its scope, so a search
 * asks only for the scopes a caller reaches. A document's record is written last and removed first:
 * until it is there (and once it is gone) its passages are never answered.
 */
export class KnowledgeBook extends AggregateBook<'document', KnowledgeDocument, KnowledgeDocumentPrimitives> {
  constructor(
    records: RecordSet<KnowledgeDocumentPrimitives>,
    private readonly passages: RecordSet<StoredPassage>,
    private readonly index: TextIndex,
    /** Hybrid retrieval's embeddings; null: full text alone. */
    private readonly vectors: KnowledgeVectors | null = null,
  ) {
    super(records, {
      collection: 'knowledge-documents',
      key: 'document',
      noun: 'Document',
      schema: knowledgeDocumentShape,
      ...asPrimitives(KnowledgeDocument),
      refsOf: (props) => ({ scope: scopeLabel(props.scope) }),
      ownerOf: () => null,
    });
  }

  /** How passages are found: `hybrid` (words and meaning) or `full-text`. */
  get retrieval(): 'hybrid' | 'full-text' {
    return this.vectors ? 'hybrid' : 'full-text';
  }

  /**
   * Keeps the document, its passages' text and their index entries (and, for hybrid retrieval,
   * their embeddings, charged to `payer`; null for the host's own); answers the embedding tokens spent.
   */
  async add(document: KnowledgeDocument, text: string, payer: Payer | null = null): Promise<number> {
    const label = scopeLabel(document.scope);
    const passages = Array.from({ length: document.passageCount }, (_, index) => {
      const { id, start, end } = document.passage(index)!;
      return { id, index, text: text.slice(start, end) };
    });
    try {
      for (let at = 0; at < passages.length; at += BATCH)
        await Promise.all(
          passages.slice(at, at + BATCH).map((passage) =>
            this.passages.put({
              id: passage.id,
              data: { documentId: document.id, index: passage.index, text: passage.text },
              refs: { document: document.id },
            }),
          ),
        );
      await this.index.put(
        passages.map((passage) => ({ id: passage.id, refs: { scope: label, document: document.id }, text: passage.text })),
      );
      const tokens = this.vectors ? await this.vectors.add(passages, { scope: label, document: document.id }, payer) : 0;
      await this.save(document);
      return tokens;
    } catch (error) {
      // Half a document is never left behind to be found later.
      await this.forgetPassages(document).catch(() => undefined);
      throw error;
    }
  }

  async get(id: string): Promise<LoadedDocument> {
    const loaded = await this.find(id);
    if (!loaded) throw new NotFound('Document');
    return loaded;
  }

  /** One page of every document, newest first. */
  page(limit: number, cursor: string | null): Promise<LoadedPage<LoadedDocument>> {
    return this.list({}, limit, cursor);
  }

  /** Removes the document (it is answered from no more at once), then its passages. */
  async remove(loaded: LoadedDocument): Promise<boolean> {
    const removed = await this.records.delete(loaded.record.id);
    await this.forgetPassages(loaded.document);
    return removed;
  }

  /**
   * The best passages for the query among documents carrying one of these scope labels: those
   * holding every word of it, ranked by the text index; with hybrid retrieval, fused (reciprocal
   * rank fusion) with the passages whose embeddings are nearest the query's, so a passage that says
   * the same in other words is found too. A hit found by meaning alone has no snippet ('').
   */
  async search(text: string, labels: ReadonlyArray<string>, limit: number, payer: Payer): Promise<KnowledgeSearch> {
    if (!this.vectors)
      return { hits: await this.index.search({ text, where: { scope: labels }, limit }), retrieval: 'full-text', tokens: 0 };
    const candidates = Math.min(MAX_CANDIDATES, limit * CANDIDATES_PER_HIT);
    const [words, meaning] = await Promise.all([
      this.index.search({ text, where: { scope: labels }, limit: candidates }),
      this.vectors.nearest(text, labels, candidates, payer),
    ]);
    if ('fullTextOnly' in meaning)
      return { hits: words.slice(0, limit), retrieval: 'full-text', tokens: 0, fullTextOnly: meaning.fullTextOnly };
    const found = new Map<string, TextHit>();
    for (const hit of meaning.hits) found.set(hit.id, { id: hit.id, refs: hit.refs, rank: -hit.distance, snippet: '' });
    for (const hit of words) found.set(hit.id, hit);
    const fused = fuseRankings([words.map((hit) => hit.id), meaning.hits.map((hit) => hit.id)]).slice(0, limit);
    return { hits: fused.map((id) => found.get(id)!), retrieval: 'hybrid', tokens: meaning.tokens };
  }

  /** A passage's text, or null when the id names none. */
  async passageText(passageId: string): Promise<string | null> {
    if (!passageRef(passageId)) return null;
    const record = await this.passages.get(passageId);
    if (!record) return null;
    const parsed = storedPassageShape.safeParse(record.data);
    if (!parsed.success)
      throw new StoredShapeInvalid(
        'knowledge-passages',
        passageId,
        parsed.error.issues.map((issue) => issue.message),
      );
    return parsed.data.text;
  }

  private async forgetPassages(document: KnowledgeDocument): Promise<void> {
    await this.index.deleteWhere({ document: document.id });
    await this.vectors?.forget(document.id);
    const ids = Array.from({ length: document.passageCount }, (_, index) => document.passage(index)!.id);
    for (let at = 0; at < ids.length; at += BATCH) await Promise.all(ids.slice(at, at + BATCH).map((id) => this.passages.delete(id)));
  }
}
