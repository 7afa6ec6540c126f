import { token } from '../tokens.js';
import type { KnowledgeUseCases } from '../../ports/use-cases/knowledge.js';

/** What knowledge-module.ts binds. */
export const KNOWLEDGE_TOKENS = {
  /** The documents Porter answers from: what `porter.knowledge` and the `/knowledge` routes call. */
  KnowledgeUseCases: token<KnowledgeUseCases>('KnowledgeUseCases'),
};
