import type { DocumentFormat, DocumentScope } from '../../domain/knowledge/knowledge-document.js';
import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../use-case.js';

/** Who manages the documents: the host itself (`porter.knowledge`), or a person the host's `knowledge.admin` answers true for. */
export type KnowledgeManager = 'host' | Principal;

/** One document as its managers see it. */
export interface KnowledgeDocumentView {
  readonly id: string;
  readonly title: string;
  readonly format: DocumentFormat;
  readonly mediaType: string;
  readonly scope: DocumentScope;
  readonly bytes: number;
  readonly characters: number;
  readonly passages: number;
  readonly createdAt: string;
}

export interface KnowledgeDocumentList {
  readonly documents: ReadonlyArray<KnowledgeDocumentView>;
  readonly nextCursor: string | null;
}

/** A document to add: its text (text, Markdown, HTML), or its bytes (any format; a PDF is always bytes). */
export interface NewDocument {
  readonly title: string;
  readonly format: DocumentFormat;
  readonly content: string | Uint8Array;
  /** Default: everyone. */
  readonly scope?: DocumentScope;
}

/** A passage of a document, where it lies in the document's text (UTF-16 offsets, end exclusive). */
export interface PassageView {
  readonly id: string;
  readonly documentId: string;
  readonly title: string;
  readonly mediaType: string;
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** A passage found for a query, best first, with the words that matched highlighted. */
export interface KnowledgeHit extends PassageView {
  /** About 16 words around the match, each matched word between U+0002 and U+0003 (domain/search/text-query.ts). */
  readonly snippet: string;
}

export interface KnowledgeUseCases {
  readonly addDocument: UseCase<{ by: KnowledgeManager } & NewDocument, KnowledgeDocumentView>;
  readonly listDocuments: UseCase<{ by: KnowledgeManager; limit?: number; cursor?: string | null }, KnowledgeDocumentList>;
  readonly getDocument: UseCase<{ by: KnowledgeManager; documentId: string }, KnowledgeDocumentView>;
  readonly removeDocument: UseCase<{ by: KnowledgeManager; documentId: string }, void>;
  /** The caller's passages for a query: only documents within their scopes. */
  readonly searchKnowledge: UseCase<{ principal: Principal; query: string; limit?: number }, KnowledgeHit[]>;
  /** One passage, when its document is within the caller's scopes; not-found otherwise. */
  readonly readPassage: UseCase<{ principal: Principal; passageId: string }, PassageView>;
}
