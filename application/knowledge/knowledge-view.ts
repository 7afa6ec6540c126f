import { MEDIA_TYPE_OF } from '../../domain/knowledge/knowledge-document.js';
import type { KnowledgeDocumentView } from '../../ports/use-cases/knowledge.js';
import type { LoadedDocument } from './knowledge-book.js';

/** A document as its managers see it. */
export function knowledgeDocumentView({ document }: LoadedDocument): KnowledgeDocumentView {
  const props = document.toPrimitives();
  return {
    id: props.id,
    title: props.title,
    format: props.format,
    mediaType: MEDIA_TYPE_OF[props.format],
    scope: props.scope,
    bytes: props.bytes,
    characters: props.characters,
    passages: props.passages.length,
    createdAt: props.createdAt,
  };
}
