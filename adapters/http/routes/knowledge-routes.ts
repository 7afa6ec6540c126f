import { z } from 'zod';
import { DOCUMENT_FORMATS, SCOPE_NAME_LIMIT, TITLE_LIMIT } from '../../../domain/knowledge/knowledge-document.js';
import type { Principal } from '../../../domain/principal.js';
import type { KnowledgeUseCases } from '../../../ports/use-cases/knowledge.js';
import { KnowledgeDocument, KnowledgeDocumentList, Passage } from '../shapes/knowledge-shapes.js';
import { idParam } from '../shapes/path-params.js';
import { json, jsonBody, route } from '../wire-route.js';
import { principalFamily, type WireRoutes } from '../wire-routes.js';
import { principalOf } from '../wire-state.js';
import { callerRoutes } from './caller-routes.js';
import { defined } from '../../../domain/defined.js';

const scopeName = z.string().min(1).max(SCOPE_NAME_LIMIT);

const documentFields = {
  title: z.string().min(1).max(TITLE_LIMIT).describe(`1 to ${TITLE_LIMIT} characters; what citations show.`),
  format: z.enum(DOCUMENT_FORMATS).describe('`pdf` is given as `base64`; the others as `text` (or `base64` of UTF-8).'),
  scope: z
    .union([
      z.strictObject({ kind: z.literal('everyone') }),
      z.strictObject({ kind: z.literal('org'), org: scopeName }),
      z.strictObject({ kind: z.literal('person'), subject: scopeName }),
    ])
    .optional()
    .describe('Who may be answered from it; default everyone.'),
};

/** The document as text, or as bytes in base64: exactly one of the two. */
const addBody = z.union([
  z.strictObject({ ...documentFields, text: z.string().describe('The document, for `text`, `markdown` and `html`.') }),
  z.strictObject({ ...documentFields, base64: z.base64().describe("The document's bytes, base64: a PDF's always.") }),
]);

/**
 * The documents the agent answers from. Managing them (add, list, read, remove) is for the host's
 * admins (`knowledge.admin`; anyone else is 403); reading a passage a citation names is for anyone
 * whose scopes reach its document (another scope's passage is 404, like one that never was).
 */
export function knowledgeRoutes(knowledge: KnowledgeUseCases): WireRoutes {
  // The wire's caller is the manager the use cases check.
  const asManager = {
    listDocuments: {
      execute: ({ principal, ...rest }: { principal: Principal; limit?: number; cursor?: string }) =>
        knowledge.listDocuments.execute({ by: principal, ...rest }),
    },
    getDocument: {
      execute: ({ principal, documentId }: { principal: Principal; documentId: string }) =>
        knowledge.getDocument.execute({ by: principal, documentId }),
    },
    removeDocument: {
      execute: ({ principal, documentId }: { principal: Principal; documentId: string }) =>
        knowledge.removeDocument.execute({ by: principal, documentId }),
    },
  };
  const documents = callerRoutes(asManager, { param: idParam('document'), key: 'documentId', errors: ['forbidden'] });
  const passages = callerRoutes(knowledge, { param: idParam('passage'), key: 'passageId' });
  return principalFamily('Knowledge', [
    documents.list('/knowledge/documents', 'listDocuments', {
      summary: 'List the documents the agent answers from',
      description: "For the host's admins (`knowledge.admin`); anyone else is 403 `forbidden`.",
      responses: { 200: json('Every document, newest first.', KnowledgeDocumentList) },
    }),
    route({
      id: 'addDocument',
      method: 'post',
      path: '/knowledge/documents',
      summary: 'Add a document for the agent to answer from',
      description:
        "For the host's admins (`knowledge.admin`; anyone else is 403 `forbidden`). The document's text is pulled out (HTML stripped to its text, a PDF's pages read), cut into overlapping passages and indexed. Past `knowledge.maxDocumentBytes` it is 413 `payload-too-large`; a PDF that is not one, or a document without words, 400 `validation`; nothing is stored then.",
      body: jsonBody(addBody),
      responses: { 201: json('The document, indexed.', KnowledgeDocument) },
      errors: ['forbidden', 'payload-too-large'],
      handle: async (ctx, { body }) => {
        const added = await knowledge.addDocument.execute({
          by: principalOf(ctx),
          title: body.title,
          format: body.format,
          content: 'base64' in body ? new Uint8Array(Buffer.from(body.base64, 'base64')) : body.text,
          ...defined({ scope: body.scope }),
        });
        ctx.status = 201;
        ctx.body = added;
      },
    }),
    documents.get('/knowledge/documents/:id', 'getDocument', {
      summary: 'Read a document',
      responses: { 200: json('The document.', KnowledgeDocument) },
    }),
    documents.delete('/knowledge/documents/:id', 'removeDocument', {
      summary: 'Remove a document',
      description: 'Its passages are never answered from again, at once.',
    }),
    passages.get('/knowledge/passages/:id', 'readPassage', {
      summary: 'Read a cited passage',
      description:
        "The passage a `source-document` part's `sourceId` names, when its document is within the caller's scopes (everyone's, their own, their org's); otherwise 404 `not-found`.",
      responses: { 200: json('The passage.', Passage) },
    }),
  ]);
}
