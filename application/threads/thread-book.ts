import { Thread, type ThreadPrimitives } from '../../domain/threads/thread.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { RecordSet } from '../../ports/store.js';
import { asPrimitives, type Loaded } from '../shared/aggregate-book.js';
import { TranscriptBook } from '../shared/transcript-book.js';
import { threadShape } from './stored-shapes.js';

export type LoadedThread = Loaded<'thread', Thread, ThreadPrimitives>;

/**
 * Threads in the store: summaries (what lists read, indexed by owner) apart from messages (indexed
 * by thread), so listing threads never touches a message. The turn lease rides on `swap` (one
 * turn per thread, across instances), so a store without compare-and-swap fails closed.
 */
export class ThreadBook extends TranscriptBook<'thread', Thread, ThreadPrimitives> {
  constructor(summaries: RecordSet<ThreadPrimitives>, messages: RecordSet<UiMessage>) {
    super(summaries, messages, {
      collection: 'threads',
      key: 'thread',
      noun: 'Thread',
      schema: threadShape,
      ...asPrimitives(Thread),
      refsOf: (props) => ({ owner: props.owner }),
      ownerOf: (thread) => thread.owner,
    });
  }

  /** Removes messages a rewind replaced (regenerate, edit-and-resend). */
  async deleteMessages(ids: ReadonlyArray<string>): Promise<void> {
    for (const id of ids) await this.messages.delete(id);
  }

  async delete(threadId: string): Promise<void> {
    for (;;) {
      const page = await this.messages.list({ refs: this.transcriptOf(threadId), limit: 500 });
      if (page.items.length === 0) break;
      for (const record of page.items) await this.messages.delete(record.id);
    }
    await this.records.delete(threadId);
  }
}
