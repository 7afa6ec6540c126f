/** The most bytes a document may be given in, by default (a JSON body carries up to 4 MiB, a PDF as base64 about 3). */
export const DEFAULT_MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;

/** The most passages a turn's `knowledge_search` answers (and cites). */
export const MAX_SEARCH_HITS = 10;

/** The text index's collection for knowledge passages. */
export const KNOWLEDGE_TEXT_COLLECTION = 'knowledge';
