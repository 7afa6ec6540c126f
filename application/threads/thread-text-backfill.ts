import type { Clock } from '../../ports/clock.js';
import type { RecordSet } from '../../ports/store.js';
import type { ThreadBook } from './thread-book.js';

/** Bumped when what a thread's passages hold changes, so every person's threads are indexed again. */
const INDEX_VERSION = 1;

export interface BackfillMark {
  readonly version: number;
  readonly at: string;
}

/**
 * Threads written before their messages were indexed (by an older Porter) are indexed on their
 * owner's first search: every thread of theirs once, then a mark under their subject says it is
 * done. Messages stored since are indexed as they are written, so the mark never needs undoing.
 * Two first searches at once both index (the same passages, replaced), and both answer in full.
 */
export class ThreadTextBackfill {
  constructor(
    private readonly threads: ThreadBook,
    private readonly marks: RecordSet<BackfillMark>,
    private readonly clock: Clock,
  ) {}

  async ensure(owner: string): Promise<void> {
    const mark = await this.marks.get(owner);
    if (mark && mark.data.version >= INDEX_VERSION) return;
    for (const { thread } of await this.threads.all({ owner })) await this.threads.reindex(thread.id);
    await this.marks.put({ id: owner, data: { version: INDEX_VERSION, at: this.clock.now().toISOString() } });
  }
}
