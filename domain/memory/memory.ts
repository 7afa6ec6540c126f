import { aggregateOf } from '../aggregate.js';
import { InvalidInput } from '../errors.js';

/** The longest memory Porter keeps, in characters: a note about a person, never a document. */
export const MEMORY_TEXT_LIMIT = 1000;

/**
 * Where a memory came from: the agent's `memory_save` in one of the person's conversations (which
 * call, so the conversation shows it), or the person themselves on their memories page or the wire.
 */
export type MemorySource =
  | { readonly kind: 'agent'; readonly threadId?: string; readonly runId?: string; readonly toolCallId: string }
  | { readonly kind: 'person' };

export interface MemoryPrimitives {
  readonly id: string;
  /** The subject whose memory this is; nobody else ever reads, recalls or changes it. */
  readonly owner: string;
  /** The org it is kept under when the host keeps memories per org (`memory.org`); null otherwise. */
  readonly org: string | null;
  readonly text: string;
  readonly source: MemorySource;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** Control characters other than tab and line breaks: no memory carries one. */
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** What a memory's text must match as sent: something besides white space, and no control character but tab and line breaks. */
export const MEMORY_TEXT_PATTERN =
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*[^\s\u0000-\u001f\u007f-\u009f][^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$/;

/** A memory's text as kept: trimmed, 1 to MEMORY_TEXT_LIMIT characters, no control characters. */
export function memoryText(text: string): string {
  const kept = text.trim();
  if (kept.length === 0 || kept.length > MEMORY_TEXT_LIMIT || CONTROL.test(kept)) {
    throw new InvalidInput(`A memory is 1 to ${MEMORY_TEXT_LIMIT} characters of text, without control characters`, [
      { path: 'text', message: `1 to ${MEMORY_TEXT_LIMIT} characters, no control characters` },
    ]);
  }
  return kept;
}

/** Whose memories: a subject, and the org they are kept under when the host keeps them per org. */
export interface MemoryScope {
  readonly owner: string;
  readonly org: string | null;
}

/** One thing the agent remembers about a person, kept until the person (or the agent, asked) forgets it. */
export class Memory extends aggregateOf<MemoryPrimitives>().reading('id', 'owner', 'org', 'text', 'source', 'createdAt', 'updatedAt') {
  private constructor(props: MemoryPrimitives) {
    super(props);
  }

  static remember(props: { id: string; scope: MemoryScope; text: string; source: MemorySource; at: string }): Memory {
    return new Memory({
      id: props.id,
      owner: props.scope.owner,
      org: props.scope.org,
      text: memoryText(props.text),
      source: props.source,
      createdAt: props.at,
      updatedAt: props.at,
    });
  }

  static fromPrimitives(props: MemoryPrimitives): Memory {
    return new Memory(props);
  }

  /** True when it is kept under exactly this scope (the subject and the org). */
  isIn(scope: MemoryScope): boolean {
    return this.props.owner === scope.owner && this.props.org === scope.org;
  }

  /** The same memory with new text; itself when the text does not change. */
  rewrite(text: string, at: string): Memory {
    const kept = memoryText(text);
    return kept === this.props.text ? this : this.with({ text: kept, updatedAt: at });
  }

  /** Adopted by the subject an anonymous session signed in as. */
  movedTo(owner: string): Memory {
    return this.with({ owner });
  }

  /** Whether `text` says the same as this memory (letter case and spacing aside). */
  says(text: string): boolean {
    return normalized(this.props.text) === normalized(text);
  }
}

function normalized(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}
