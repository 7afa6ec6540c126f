import { Thread, type ThreadPrimitives } from '../../domain/threads/thread.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { RecordSet } from '../../ports/store.js';
import { AggregateBook, asPrimitives, type Loaded } from '../shared/aggregate-book.js';
import { threadShape } from './stored-shapes.js';

export type LoadedThread = Loaded<'thread', Thread, ThreadPrimitives>;

/**
 * Threads in the store: summaries (what lists read, indexed by owner) apart from messages (indexed
 * by thread), so listing threads never touches a message. The turn lease rides on `swap` (one
 * turn per thread, across instances), so a store without compare-and-swap fails closed.
 */
export class ThreadBook extends AggregateBook<'thread', Thread, ThreadPrimitives> {
  constructor(
    summaries: RecordSet<ThreadPrimitives>,
    private readonly messages: RecordSet<UiMessage>,
  ) {
    super(summaries, {
      collection: 'threads',
      key: 'thread',
      noun: 'Thread',
      schema: threadShape,
      ...asPrimitives(Thread),
      refsOf: (props) => ({ owner: props.owner }),
      ownerOf: (thread) => thread.owner,
    });
  }

  /** Messages oldest first: all of them, or the newest `last`. */
  async messagesOf(threadId: string, last?: number): Promise<UiMessage[]> {
    const collected: UiMessage[] = [];
    let cursor: string | null = null;
    do {
      const wanted = last === undefined ? 500 : Math.min(500, last - collected.length);
      const page = await this.messages.list({ refs: { thread: threadId }, limit: wanted, cursor });
      collected.push(...page.items.map((record) => record.data));
      cursor = last !== undefined && collected.length >= last ? null : page.nextCursor;
    } while (cursor);
    return collected.reverse();
  }

  /** Inserts or replaces a message; a replaced message keeps its place in the thread. */
  async putMessage(threadId: string, message: UiMessage): Promise<void> {
    await this.messages.put({ id: message.id, data: message, refs: { thread: threadId } });
  }

  /** Removes messages a rewind replaced (regenerate, edit-and-resend). */
  async deleteMessages(ids: ReadonlyArray<string>): Promise<void> {
    for (const id of ids) await this.messages.delete(id);
  }

  async delete(threadId: string): Promise<void> {
    for (;;) {
      const page = await this.messages.list({ refs: { thread: threadId }, limit: 500 });
      if (page.items.length === 0) break;
      for (const record of page.items) await this.messages.delete(record.id);
    }
    await this.records.delete(threadId);
  }
}
