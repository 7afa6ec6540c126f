import { Thread, type ThreadPrimitives } from '../../domain/threads/thread.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import { AtomicityUnavailable, NotFound } from '../../domain/errors.js';
import { everyRecord, type RecordSet, type StoredRecord } from '../../ports/store.js';

export interface LoadedThread {
  readonly thread: Thread;
  readonly record: StoredRecord<ThreadPrimitives>;
}

/**
 * Threads in the store: summaries (what lists read, indexed by owner) apart from messages (indexed
 * by thread), so listing threads never touches a message.
 */
export class ThreadBook {
  constructor(
    private readonly summaries: RecordSet<ThreadPrimitives>,
    private readonly messages: RecordSet<UiMessage>,
  ) {}

  async save(thread: Thread): Promise<void> {
    const props = thread.toPrimitives();
    await this.summaries.put({ id: props.id, data: props, refs: { owner: props.owner } });
  }

  /**
   * Saves only when nobody changed the thread since it was read. The turn lease rides on this (one
   * turn per thread, across instances), so a store without compare-and-swap fails closed.
   */
  async replace(from: LoadedThread, to: Thread): Promise<boolean> {
    const props = to.toPrimitives();
    if (!this.summaries.atomic) throw new AtomicityUnavailable('compare-and-swap on threads (one turn at a time)');
    return (await this.summaries.atomic.compareAndSwap(props.id, from.record.revision, { data: props, refs: { owner: props.owner } })) !== null;
  }

  async find(id: string): Promise<LoadedThread | null> {
    const record = await this.summaries.get(id);
    return record ? { thread: Thread.fromPrimitives(record.data), record } : null;
  }

  /** The owner's thread, or not-found (another owner's id is never revealed). */
  async ownedBy(owner: string, id: string): Promise<LoadedThread> {
    const loaded = await this.find(id);
    if (!loaded || loaded.thread.owner !== owner) throw new NotFound('Thread');
    return loaded;
  }

  async list(owner: string, limit: number, cursor: string | null): Promise<{ threads: Thread[]; nextCursor: string | null }> {
    const page = await this.summaries.list({ refs: { owner }, limit, cursor });
    return { threads: page.items.map((record) => Thread.fromPrimitives(record.data)), nextCursor: page.nextCursor };
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

  async delete(threadId: string): Promise<void> {
    for (;;) {
      const page = await this.messages.list({ refs: { thread: threadId }, limit: 500 });
      if (page.items.length === 0) break;
      for (const record of page.items) await this.messages.delete(record.id);
    }
    await this.summaries.delete(threadId);
  }

  /** Every thread of `from`, for adoption. */
  async allOwnedBy(owner: string): Promise<Thread[]> {
    return (await everyRecord(this.summaries, { owner })).map((record) => Thread.fromPrimitives(record.data));
  }
}
