import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { RecordSet } from '../../ports/store.js';
import { AggregateBook, type AggregateMapping } from './aggregate-book.js';

/**
 * A book whose aggregates each keep a transcript (a thread's, a run's): AI SDK UI messages in a
 * record set of their own, indexed by the aggregate's id under its key, so reading or listing the
 * aggregates never touches a message.
 */
export class TranscriptBook<K extends string, A, P extends { readonly id: string }> extends AggregateBook<K, A, P> {
  constructor(
    records: RecordSet<P>,
    protected readonly messages: RecordSet<UiMessage>,
    mapping: AggregateMapping<K, A, P>,
  ) {
    super(records, mapping);
  }

  /** The transcript oldest first: all of it, or its newest `last` messages. */
  async messagesOf(id: string, last?: number): Promise<UiMessage[]> {
    const collected: UiMessage[] = [];
    let cursor: string | null = null;
    do {
      const wanted = last === undefined ? 500 : Math.min(500, last - collected.length);
      const page = await this.messages.list({ refs: this.transcriptOf(id), limit: wanted, cursor });
      collected.push(...page.items.map((record) => record.data));
      cursor = last !== undefined && collected.length >= last ? null : page.nextCursor;
    } while (cursor);
    return collected.reverse();
  }

  /** Inserts or replaces a message; a replaced message keeps its place in the transcript. */
  async putMessage(id: string, message: UiMessage): Promise<void> {
    await this.messages.put({ id: message.id, data: message, refs: this.transcriptOf(id) });
  }

  /** The ref every message of one aggregate's transcript carries: `{thread: id}`, `{run: id}`. */
  protected transcriptOf(id: string): Record<string, string> {
    return { [this.mapping.key]: id };
  }
}
