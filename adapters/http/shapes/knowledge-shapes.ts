import { z } from 'zod';
import { DOCUMENT_FORMATS } from '../../../domain/knowledge/knowledge-document.js';
import { isoTime, nextCursor } from './common-shapes.js';

export const DocumentScope = z
  .union([
    z.object({ kind: z.literal('everyone') }),
    z.object({ kind: z.literal('org'), org: z.string() }),
    z.object({ kind: z.literal('person'), subject: z.string() }),
  ])
  .meta({
    id: 'DocumentScope',
    description:
      "Who may be answered from it: everyone, the people acting in one org (the host's `knowledge.org`), or one person (a subject).",
  });

export const KnowledgeDocument = z
  .object({
    id: z.string().describe('The `doc_` id.'),
    title: z.string(),
    format: z.enum(DOCUMENT_FORMATS),
    mediaType: z.string(),
    scope: DocumentScope,
    bytes: z.number().int().describe('The size it was given in.'),
    characters: z.number().int().describe("The length of its text (UTF-16 code units, as passages' offsets count)."),
    passages: z.number().int().describe('How many passages it was cut into.'),
    createdAt: isoTime,
  })
  .meta({ id: 'KnowledgeDocument', description: 'A document the agent answers from.' });

export const KnowledgeDocumentList = z
  .object({ documents: z.array(KnowledgeDocument), nextCursor })
  .meta({ id: 'KnowledgeDocumentList', description: 'Every document, newest first.' });

export const Passage = z
  .object({
    id: z.string().describe('The `psg_` id: what a citation (`source-document` part) names as its `sourceId`.'),
    documentId: z.string(),
    title: z.string().describe("The document's title."),
    mediaType: z.string().describe("The document's media type."),
    start: z.number().int().describe("Where the passage starts in the document's text (a UTF-16 offset)."),
    end: z.number().int().describe('Where it ends (exclusive).'),
    text: z.string(),
  })
  .meta({ id: 'Passage', description: 'A passage of a document, as a citation opens it.' });
