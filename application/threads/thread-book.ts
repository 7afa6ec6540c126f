import { searchableTitle, Thread, type ThreadPrimitives } from '../../domain/threads/thread.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { RecordSet } from '../../ports/store.js';
import { asPrimitives, type Loaded } from '../shared/aggregate-book.js';
import { TranscriptBook } from '../shared/transcript-book.js';
import { threadShape } from './stored-shapes.js';
import type { ThreadText } from './thread-text.js';
import { defined } from '../../domain/defined.js';
import { asItComes, type Together } from '../shared/together.js';

export type LoadedThread = Loaded<'thread', Thread, ThreadPrimitives>;

/**
 * Threads in the store: summaries (what lists read, indexed by owner) apart from messages (indexed
 * by thread), so listing threads never touches a message. The turn lease rides on `swap` (one
 * turn per thread, across instances), so a store without compare-and-swap fails closed. Whatever
 * changes a thread's words (a message stored or removed, a new title, the thread deleted) changes
 * its passages in the text index in the same call (ThreadText), so search finds what is there.
 */
export class ThreadBook extends TranscriptBook<'thread', Thread, ThreadPrimitives> {
  constructor(
    summaries: RecordSet<ThreadPrimitives>,
    messages: RecordSet<UiMessage>,
    private readonly text: ThreadText,
    /** How a message and its passages go to the store together. */
    private readonly together: Together = asItComes,
  ) {
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

  /**
   * Stores the message and indexes its words under the thread's owner. `sent`: the client's id of a
   * person's message, kept as a label so the same message sent again is found. `owner`: the owner
   * as the caller just read or swapped the thread; without it the thread is read to learn it.
   */
  override async putMessage(threadId: string, message: UiMessage, sent?: string, owner?: string): Promise<void> {
    // The owner known, the message and its words are stored in one go.
    if (owner !== undefined) {
      await this.together(() =>
        Promise.all([this.storeMessage(threadId, message, sent), this.text.indexMessages(owner, threadId, [message])]),
      );
      return;
    }
    await this.storeMessage(threadId, message, sent);
    const whose = (await this.records.get(threadId))?.data.owner;
    if (whose) await this.text.indexMessages(whose, threadId, [message]);
  }

  private async storeMessage(threadId: string, message: UiMessage, sent?: string): Promise<void> {
    if (sent) await this.messages.put({ id: message.id, data: message, refs: { ...this.transcriptOf(threadId), sent } });
    else await super.putMessage(threadId, message);
  }

  /** A stored message changed in place (its interruption mark), keeping the labels it was stored with. */
  async restate(message: UiMessage): Promise<void> {
    const stored = await this.messages.get(message.id);
    if (stored) await this.messages.put({ id: message.id, data: message, refs: stored.refs });
  }

  /** The person's message the client sent as `sent` in this thread, if it is stored. */
  async sentMessage(threadId: string, sent: string): Promise<UiMessage | null> {
    const page = await this.messages.list({ refs: { ...this.transcriptOf(threadId), sent }, limit: 1 });
    return page.items[0]?.data ?? null;
  }

  /**
   * Puts away messages a version no longer shows (regenerate, edit and resend, a switch to another
   * version): kept, with their place and label, out of the transcript and of search.
   */
  async shelveMessages(threadId: string, ids: ReadonlyArray<string>): Promise<void> {
    for (const id of ids) await this.relabel(id, this.shelfOf(threadId));
    await this.text.forgetMessages(ids);
  }

  /**
   * Brings messages put away back into the transcript, where they were: a record keeps its
   * creation time, and the transcript is ordered by it. Indexed again under `owner`.
   */
  async restoreMessages(threadId: string, ids: ReadonlyArray<string>, owner: string): Promise<void> {
    const restored: UiMessage[] = [];
    for (const id of ids) {
      const message = await this.relabel(id, this.transcriptOf(threadId));
      if (message) restored.push(message);
    }
    await this.text.indexMessages(owner, threadId, restored);
  }

  /** The message under new refs (its `sent` label kept); null when it is gone. */
  private async relabel(id: string, refs: Record<string, string>): Promise<UiMessage | null> {
    const record = await this.messages.get(id);
    if (!record) return null;
    const { sent } = record.refs;
    await this.messages.put({ id, data: record.data, refs: { ...refs, ...defined({ sent: sent || undefined }) } });
    return record.data;
  }

  /** The ref a thread's messages carry while a version not shown holds them. */
  private shelfOf(threadId: string): Record<string, string> {
    return { shelvedIn: threadId };
  }

  override async save(thread: Thread): Promise<void> {
    await super.save(thread);
    // A save creates a thread or moves it (adoption keeps its title): without a searchable title it
    // never had a title passage to remove.
    if (searchableTitle(thread.toPrimitives()) !== null) await this.text.indexTitle(thread.toPrimitives());
  }

  override async swap(loaded: LoadedThread, next: Thread): Promise<LoadedThread | null> {
    const before = loaded.thread.toPrimitives();
    const after = next.toPrimitives();
    // Most swaps are a turn's lease (the first one also titles the thread by its message, which is
    // found as itself); only a searchable title or a new owner changes what search finds.
    if (searchableTitle(before) === searchableTitle(after) && before.owner === after.owner) return super.swap(loaded, next);
    // The title's passage goes with the swap, in one round trip; a swap that lost had it written for
    // nothing, and the thread as it is now says again what search finds.
    const [swapped] = await this.together(() => Promise.all([super.swap(loaded, next), this.text.indexTitle(after)]));
    if (!swapped) {
      const current = await this.find(after.id);
      await (current ? this.text.indexTitle(current.thread.toPrimitives()) : this.text.forgetThread(after.id));
    }
    return swapped;
  }

  /**
   * `update`, trying first the thread as the caller last read or stored it: no read when nothing
   * wrote it since. A lost swap, or a change the known thread declines, is decided on a fresh read.
   */
  async updateFrom(known: LoadedThread, change: (thread: Thread) => Thread | null): Promise<Thread | null> {
    const changed = change(known.thread);
    if (changed && changed !== known.thread && (await this.swap(known, changed))) return changed;
    return this.update(known.thread.id, change);
  }

  /**
   * Indexes the thread's title and every message again under its current owner: after adoption
   * moved it, and for threads written before messages were indexed (ThreadTextBackfill).
   */
  async reindex(threadId: string): Promise<void> {
    const loaded = await this.find(threadId);
    if (!loaded) return;
    const thread = loaded.thread.toPrimitives();
    await this.text.indexTitle(thread);
    await this.text.indexMessages(thread.owner, thread.id, await this.messagesOf(threadId));
  }

  /** The thread, its messages (those of every version) and their passages. The passages go first: none outlives its thread. */
  async delete(threadId: string): Promise<void> {
    await this.text.forgetThread(threadId);
    for (const refs of [this.transcriptOf(threadId), this.shelfOf(threadId)])
      for (;;) {
        const page = await this.messages.list({ refs, limit: 500 });
        if (page.items.length === 0) break;
        for (const record of page.items) await this.messages.delete(record.id);
      }
    await this.records.delete(threadId);
  }
}
