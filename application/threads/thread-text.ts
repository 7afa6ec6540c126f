import { searchableTitle, type ThreadPrimitives } from '../../domain/threads/thread.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { Passage, TextHit, TextIndex } from '../../ports/text-index.js';

/** The text index's collection for threads. */
export const THREAD_TEXT_COLLECTION = 'threads';

/**
 * What of a thread can be searched, as passages of the text index: its title once a model or the
 * person gave it one (`t:<threadId>`; until then the first message titles it, found as itself) and
 * the words of each message (`m:<messageId>`: the person's and the assistant's text parts; tool
 * calls, reasoning and data parts are not words anyone wrote to be read back). Every passage
 * carries the thread's owner and the thread, so a search is scoped to its person and a deleted
 * thread's passages go with it.
 */
export class ThreadText {
  constructor(private readonly index: TextIndex) {}

  /** Indexes (or re-indexes) these messages of one thread; a message without words is removed. */
  async indexMessages(owner: string, threadId: string, messages: ReadonlyArray<UiMessage>): Promise<void> {
    const passages: Passage[] = [];
    const wordless: string[] = [];
    for (const message of messages) {
      const text = wordsOf(message);
      if (text) passages.push({ id: messageKey(message.id), refs: { owner, thread: threadId, message: message.id }, text });
      else wordless.push(messageKey(message.id));
    }
    if (passages.length > 0) await this.index.put(passages);
    if (wordless.length > 0) await this.index.delete(wordless);
  }

  /** Indexes the thread's title, when it has one search finds as a title (`searchableTitle`). */
  async indexTitle(thread: Pick<ThreadPrimitives, 'id' | 'owner' | 'title' | 'titledBy'>): Promise<void> {
    const title = searchableTitle(thread);
    if (title === null) await this.index.delete([titleKey(thread.id)]);
    else await this.index.put([{ id: titleKey(thread.id), refs: { owner: thread.owner, thread: thread.id }, text: title }]);
  }

  async forgetMessages(messageIds: ReadonlyArray<string>): Promise<void> {
    if (messageIds.length > 0) await this.index.delete(messageIds.map(messageKey));
  }

  /** Every passage of the thread, title and messages. */
  async forgetThread(threadId: string): Promise<void> {
    await this.index.deleteWhere({ thread: threadId });
  }

  /** The owner's best passages for the query, best first. */
  search(owner: string, text: string, limit: number): Promise<TextHit[]> {
    return this.index.search({ text, where: { owner }, limit });
  }
}

const messageKey = (id: string) => `m:${id}`;
const titleKey = (id: string) => `t:${id}`;

/** A message's searchable words: its text parts, for the person's and the assistant's messages. */
function wordsOf(message: UiMessage): string {
  if (message.role !== 'user' && message.role !== 'assistant') return '';
  return message.parts
    .flatMap((part) =>
      part.type === 'text' && typeof (part as { text?: unknown }).text === 'string' ? [(part as { text: string }).text] : [],
    )
    .join('\n')
    .trim();
}
