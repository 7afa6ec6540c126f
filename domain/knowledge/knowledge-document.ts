import { InvalidInput } from '../errors.js';
import { ID_PREFIXES } from '../ids.js';
import type { Span } from './chunking.js';

/**
 * A document a host gives Porter to answer from: its title, the format it came in, who may be
 * answered from it, and where its passages lie in its text (the text itself is kept beside it).
 */

/** What a document was given as; its text is pulled out of it once, when it is added. */
export const DOCUMENT_FORMATS = ['text', 'markdown', 'html', 'pdf'] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];

/** The media type a format's citations name (the AI SDK's `source-document` part carries one). */
export const MEDIA_TYPE_OF: Readonly<Record<DocumentFormat, string>> = {
  text: 'text/plain',
  markdown: 'text/markdown',
  html: 'text/html',
  pdf: 'application/pdf',
};

/**
 * Who may be answered from a document: everyone the host serves, the people acting in one org (as
 * the host's `knowledge.org` names it), or one person (their subject).
 */
export type DocumentScope =
  { readonly kind: 'everyone' } | { readonly kind: 'org'; readonly org: string } | { readonly kind: 'person'; readonly subject: string };

export const TITLE_LIMIT = 300;
/** The longest org name or subject a scope names. */
export const SCOPE_NAME_LIMIT = 512;

// eslint-disable-next-line no-control-regex -- control characters are what this refuses
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** The label a document's passages carry for its scope: one label, so a search can ask for any of a caller's scopes at once. */
export function scopeLabel(scope: DocumentScope): string {
  switch (scope.kind) {
    case 'everyone':
      return 'everyone';
    case 'org':
      return `org:${scope.org}`;
    case 'person':
      return `person:${scope.subject}`;
  }
}

/** A scope as given, checked: an org or subject of 1 to 512 characters without control characters. */
export function documentScope(scope: DocumentScope): DocumentScope {
  if (scope.kind === 'everyone') return { kind: 'everyone' };
  const name = scope.kind === 'org' ? scope.org : scope.subject;
  if (typeof name !== 'string' || name.length === 0 || name.length > SCOPE_NAME_LIMIT || CONTROL.test(name))
    throw new InvalidInput(
      `A document's ${scope.kind === 'org' ? 'org' : 'subject'} is 1 to ${SCOPE_NAME_LIMIT} characters, without control characters`,
    );
  return scope.kind === 'org' ? { kind: 'org', org: name } : { kind: 'person', subject: name };
}

/** A title as kept: trimmed, one line, 1 to TITLE_LIMIT characters. */
export function documentTitle(title: string): string {
  const kept = title.replace(/\s+/g, ' ').trim();
  if (kept.length === 0 || kept.length > TITLE_LIMIT || CONTROL.test(kept))
    throw new InvalidInput(`A document's title is 1 to ${TITLE_LIMIT} characters, without control characters`);
  return kept;
}

export interface KnowledgeDocumentPrimitives {
  readonly id: string;
  readonly title: string;
  readonly format: DocumentFormat;
  readonly scope: DocumentScope;
  /** The size of what was given, in bytes. */
  readonly bytes: number;
  /** The length of the document's text (UTF-16 code units, as passage offsets count). */
  readonly characters: number;
  /** Each passage's [start, end) in the text, in order: passage `i` is `passages[i]`. */
  readonly passages: ReadonlyArray<readonly [number, number]>;
  readonly createdAt: string;
}

/** A passage's id: the document's own random part and the passage's place (`psg_01J…-3`). */
export function passageId(documentId: string, index: number): string {
  return `${ID_PREFIXES.passage}${documentId.slice(ID_PREFIXES.document.length)}-${index}`;
}

/** The document and place a passage id names, or null when it names none. */
export function passageRef(id: string): { documentId: string; index: number } | null {
  if (!id.startsWith(ID_PREFIXES.passage)) return null;
  const dash = id.lastIndexOf('-');
  const index = Number(id.slice(dash + 1));
  if (dash <= ID_PREFIXES.passage.length || !Number.isSafeInteger(index) || index < 0 || !/^\d+$/.test(id.slice(dash + 1))) return null;
  return { documentId: `${ID_PREFIXES.document}${id.slice(ID_PREFIXES.passage.length, dash)}`, index };
}

export class KnowledgeDocument {
  private constructor(private readonly props: KnowledgeDocumentPrimitives) {}

  static fromPrimitives(props: KnowledgeDocumentPrimitives): KnowledgeDocument {
    return new KnowledgeDocument(props);
  }

  /** A document of `text`, cut into `spans`. */
  static of(input: {
    id: string;
    title: string;
    format: DocumentFormat;
    scope: DocumentScope;
    bytes: number;
    text: string;
    spans: ReadonlyArray<Span>;
    at: string;
  }): KnowledgeDocument {
    return new KnowledgeDocument({
      id: input.id,
      title: documentTitle(input.title),
      format: input.format,
      scope: documentScope(input.scope),
      bytes: input.bytes,
      characters: input.text.length,
      passages: input.spans.map(({ start, end }) => [start, end] as const),
      createdAt: input.at,
    });
  }

  get id(): string {
    return this.props.id;
  }
  get title(): string {
    return this.props.title;
  }
  get scope(): DocumentScope {
    return this.props.scope;
  }

  /** True when a caller reaching these scope labels may read it. */
  isWithin(labels: ReadonlyArray<string>): boolean {
    return labels.includes(scopeLabel(this.props.scope));
  }

  /** The passage at `index`, or null when the document has none there. */
  passage(index: number): { id: string; start: number; end: number } | null {
    const span = this.props.passages[index];
    return span ? { id: passageId(this.props.id, index), start: span[0], end: span[1] } : null;
  }

  get passageCount(): number {
    return this.props.passages.length;
  }

  toPrimitives(): KnowledgeDocumentPrimitives {
    return this.props;
  }
}
