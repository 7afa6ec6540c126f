import { z } from 'zod';
import { DOCUMENT_FORMATS, type KnowledgeDocumentPrimitives } from '../../domain/knowledge/knowledge-document.js';

/** The shape documents are stored in; the book checks every row it reads against it. */
export const knowledgeDocumentShape = z.object({
  id: z.string(),
  title: z.string(),
  format: z.enum(DOCUMENT_FORMATS),
  scope: z.union([
    z.object({ kind: z.literal('everyone') }),
    z.object({ kind: z.literal('org'), org: z.string() }),
    z.object({ kind: z.literal('person'), subject: z.string() }),
  ]),
  bytes: z.number(),
  characters: z.number(),
  passages: z.array(z.tuple([z.number(), z.number()]).readonly()),
  createdAt: z.string(),
}) satisfies z.ZodType<KnowledgeDocumentPrimitives>;

/** A passage's own text, one record each, read when a passage is cited or searched. */
export interface StoredPassage {
  readonly documentId: string;
  readonly index: number;
  readonly text: string;
}

export const storedPassageShape = z.object({ documentId: z.string(), index: z.number(), text: z.string() });
