import { LimitReached } from '../../domain/errors.js';
import type { Payer } from '../../domain/usage/payer.js';
import type { Embedder } from '../../ports/embedder.js';
import type { VectorHit, VectorIndex, VectorIndexes } from '../../ports/vector-index.js';
import type { UsageMeter } from '../usage/usage-meter.js';

/** Passages embedded per call to the embedding model (the AI SDK splits further for a model that takes fewer). */
export const EMBED_BATCH = 64;

/** The vector index's collection for knowledge passages. */
export const KNOWLEDGE_VECTOR_COLLECTION = 'knowledge';

/** The cosine distance from which a passage has nothing in common with the query (similarity 0 or less). */
const UNRELATED = 1 - 1e-6;

/** Why a search was answered by full text alone, though hybrid retrieval is on. */
export type FullTextOnly = 'embedding-budget-spent' | 'embedding-failed';

export interface KnowledgeVectorsDeps {
  readonly embedder: Embedder;
  readonly indexes: VectorIndexes;
  /** Meters `embeddingTokens` (`NoUsageMeter`: nothing metered). */
  readonly meter: UsageMeter;
}

/**
 * The embeddings of knowledge passages, for hybrid retrieval: each passage embedded when its
 * document is added (a batch of passages a call), each query when it is searched, both through
 * the host's embedding model, and the tokens it counted charged to whoever asked (`embeddingTokens`;
 * the host's own adds are its own). Each entry carries the passage's scope and document like its
 * text index entry, and the model's label: vectors of another model are never compared with
 * this one's (passages added under it are found by their words alone until added again).
 */
export class KnowledgeVectors {
  constructor(private readonly deps: KnowledgeVectorsDeps) {}

  get engine(): string {
    return this.deps.indexes.engine;
  }

  /** Embeds and stores the passages; answers the tokens spent. Throws LimitReached before any call when the payer has none left. */
  async add(
    passages: ReadonlyArray<{ id: string; text: string }>,
    refs: { scope: string; document: string },
    payer: Payer | null,
  ): Promise<number> {
    if (payer) await this.deps.meter.ensureLeft(payer, 'embeddingTokens');
    let tokens = 0;
    for (let at = 0; at < passages.length; at += EMBED_BATCH) {
      const batch = passages.slice(at, at + EMBED_BATCH);
      const embedded = await this.deps.embedder.embed(batch.map((passage) => passage.text));
      if (embedded.vectors.length !== batch.length)
        throw new Error(`The embedding model answered ${embedded.vectors.length} embeddings for ${batch.length} passages`);
      tokens += embedded.tokens;
      if (payer) await this.deps.meter.record(payer, 'embeddingTokens', embedded.tokens);
      const index = await this.indexFor(embedded.vectors);
      await index?.put(
        batch.map((passage, n) => ({ id: passage.id, refs: { ...refs, model: this.deps.embedder.label }, vector: embedded.vectors[n]! })),
      );
    }
    return tokens;
  }

  /**
   * The passages nearest the query within the scope labels, nearest first, and the tokens its
   * embedding cost; or why there are none to fuse (the payer's `embeddingTokens` are spent, or the
   * embedding model failed): the search then stands on its words alone.
   */
  async nearest(
    query: string,
    labels: ReadonlyArray<string>,
    limit: number,
    payer: Payer,
  ): Promise<{ hits: VectorHit[]; tokens: number } | { fullTextOnly: FullTextOnly }> {
    try {
      await this.deps.meter.ensureLeft(payer, 'embeddingTokens');
    } catch (error) {
      if (error instanceof LimitReached) return { fullTextOnly: 'embedding-budget-spent' };
      throw error;
    }
    let embedded: { vectors: number[][]; tokens: number };
    try {
      embedded = await this.deps.embedder.embed([query]);
    } catch {
      return { fullTextOnly: 'embedding-failed' };
    }
    await this.deps.meter.record(payer, 'embeddingTokens', embedded.tokens);
    const index = await this.indexFor(embedded.vectors);
    const hits = index
      ? await index.search({ vector: embedded.vectors[0]!, where: { scope: labels, model: this.deps.embedder.label }, limit })
      : [];
    // A passage at a right angle to the query (or further) shares nothing with it: never an answer.
    return { hits: hits.filter((hit) => hit.distance < UNRELATED), tokens: embedded.tokens };
  }

  /** Removes a document's embeddings, of every model. */
  async forget(documentId: string): Promise<void> {
    await this.deps.indexes.deleteWhere(KNOWLEDGE_VECTOR_COLLECTION, { document: documentId });
  }

  private async indexFor(vectors: ReadonlyArray<ReadonlyArray<number>>): Promise<VectorIndex | null> {
    const first = vectors[0];
    return first ? this.deps.indexes.index(KNOWLEDGE_VECTOR_COLLECTION, first.length) : null;
  }
}
