import { z } from 'zod';
import type { StreamedSource, ToolDefinition } from '../../ports/tool-registry.js';
import type { KnowledgeHit, KnowledgeUseCases } from '../../ports/use-cases/knowledge.js';
import { defineTool } from '../tools/define-tool.js';
import { MAX_SEARCH_HITS } from './knowledge-settings.js';
import { defined } from '../../domain/defined.js';

export const KNOWLEDGE_TOOL = 'knowledge_search';

/**
 * The citation a passage becomes on the answer: the AI SDK's `source-document` part, its
 * `sourceId` the passage's id (`GET /knowledge/passages/:id` reads it), and where the passage lies
 * in its document under `providerMetadata.porter`.
 */
export function citationOf(hit: KnowledgeHit): StreamedSource {
  return {
    type: 'source-document',
    sourceId: hit.id,
    mediaType: hit.mediaType,
    title: hit.title,
    providerMetadata: { porter: { documentId: hit.documentId, passageId: hit.id, start: hit.start, end: hit.end } },
  };
}

/**
 * The agent's `knowledge_search`: the passages of the host's documents that hold the words asked
 * for, best first, among the documents the caller may be answered from. A read, run without
 * asking; each passage found is cited on the answer, so the person can open what it said.
 */
export function knowledgeTools(deps: { search: KnowledgeUseCases['searchKnowledge'] }): ToolDefinition[] {
  return [
    defineTool({
      name: KNOWLEDGE_TOOL,
      description:
        "Search the documents this service gave you to answer from (its handbook, policies, product documentation). Use it when the person asks about something those documents may cover, and answer from the passages found, naming the document's title. " +
        'Every word of the query must appear in a passage: search with a few distinctive words, and search again with others when nothing is found.',
      input: z.strictObject({
        query: z.string().min(1).max(500).describe('A few distinctive words to look for.'),
        limit: z.number().int().min(1).max(MAX_SEARCH_HITS).default(5).describe('How many passages to answer, best first.'),
      }),
      risk: 'read',
      async execute({ query, limit }, context) {
        const hits = await deps.search.execute({ principal: context.principal, query, limit });
        for (const hit of hits) context.cite?.(citationOf(hit));
        return {
          passages: hits.map((hit) => ({ passageId: hit.id, document: hit.title, text: hit.text })),
          ...defined({ note: hits.length === 0 ? 'No passage holds all of these words; try fewer or other words.' : undefined }),
        };
      },
    }),
  ];
}
