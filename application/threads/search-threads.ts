import { highlightsOf } from '../../domain/search/text-query.js';
import type { Principal } from '../../domain/principal.js';
import { MAX_TEXT_HITS } from '../../ports/text-index.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ThreadSearchHit } from '../../ports/use-cases/threads.js';
import type { ThreadBook } from './thread-book.js';
import type { ThreadText } from './thread-text.js';
import type { ThreadTextBackfill } from './thread-text-backfill.js';
import { defined } from '../../domain/defined.js';

type Input = { principal: Principal; q: string; limit?: number; cursor?: string | null };
type Output = { threads: ReadonlyArray<ThreadSearchHit>; nextCursor: string | null };

/** How many of the person's best-matching passages one search ranks threads from. */
export const SEARCHED_PASSAGES = MAX_TEXT_HITS;

/**
 * `GET /threads?q=`: the person's threads whose title or messages hold every word of `q` (each
 * as the start of a word; case and accents ignored), best match first, each with a snippet of
 * its best passage and the words to highlight in it. Only the person's own passages are searched
 * (the index is scoped by owner); each thread found is read again and dropped unless it is still
 * theirs. Pages through the threads found with its own cursor (an offset).
 */
export class SearchThreads implements UseCase<Input, Output> {
  constructor(
    private readonly threads: ThreadBook,
    private readonly text: ThreadText,
    private readonly backfill: ThreadTextBackfill,
  ) {}

  async execute({ principal, q, limit = 50, cursor = null }: Input): Promise<Output> {
    const owner = principal.subject;
    await this.backfill.ensure(owner);
    const hits = await this.text.search(owner, q, SEARCHED_PASSAGES);
    // Hits come best first: a thread's first hit is its best passage.
    const best = new Map<string, (typeof hits)[number]>();
    for (const hit of hits) {
      const thread = hit.refs['thread'];
      if (thread && !best.has(thread)) best.set(thread, hit);
    }
    const ranked = [...best.entries()];
    const skip = cursor && /^\d+$/.test(cursor) ? Number(cursor) : 0;
    const found: ThreadSearchHit[] = [];
    for (const [threadId, hit] of ranked.slice(skip, skip + limit)) {
      const loaded = await this.threads.find(threadId);
      if (!loaded || loaded.thread.owner !== owner) continue;
      const { id, title, updatedAt } = loaded.thread.toPrimitives();
      const { text, highlights } = highlightsOf(hit.snippet);
      const messageId = hit.refs['message'];
      found.push({ id, title, updatedAt, match: { snippet: text, highlights, ...defined({ messageId: messageId || undefined }) } });
    }
    return { threads: found, nextCursor: ranked.length > skip + limit ? String(skip + limit) : null };
  }
}
