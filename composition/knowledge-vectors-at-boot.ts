import type { Logger } from '../ports/logger.js';
import type { Store } from '../ports/store.js';
import type { VectorIndexes } from '../ports/vector-index.js';
import type { PorterConfig } from './config/config-schema.js';

/**
 * Hybrid retrieval's vectors, decided once at boot when the host gave `knowledge.embeddingModel`:
 * the store's vector indexes (libsql's on SQLite, pgvector on PostgreSQL when the extension can be
 * made), or null and full text alone; the choice is said once in the log either way.
 */
export async function knowledgeVectorsAtBoot(config: PorterConfig, store: Store, logger: Logger): Promise<VectorIndexes | null> {
  if (!config.knowledge || !config.knowledge.embeddingModel) return null;
  const answer = store.vectors ? await store.vectors() : { reason: "the host's store keeps no vectors" };
  if ('reason' in answer) {
    logger.warn(`knowledge: full-text only: ${answer.reason}`);
    return null;
  }
  logger.info(`knowledge: hybrid retrieval with ${answer.engine}`);
  return answer;
}
