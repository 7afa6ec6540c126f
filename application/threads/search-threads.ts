import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ThreadSummary } from '../../ports/use-cases/threads.js';
import type { ThreadBook } from './thread-book.js';

type Input = { principal: Principal; q: string; limit?: number; cursor?: string | null };
type Output = { threads: ReadonlyArray<ThreadSummary>; nextCursor: string | null };

/** How many of the person's threads one search looks through, newest first. */
export const SEARCHED_THREADS = 2_000;
const PAGE = 200;

/**
 * `GET /threads?q=`: the person's threads whose title holds every word of `q` (case and accents
 * ignored), newest first. Titles live on the summaries, so a search reads no message; it looks
 * through the newest SEARCHED_THREADS, and pages through what it found with its own cursor.
 */
export class SearchThreads implements UseCase<Input, Output> {
  constructor(private readonly threads: ThreadBook) {}

  async execute({ principal, q, limit = 50, cursor = null }: Input): Promise<Output> {
    const words = fold(q).split(' ').filter(Boolean);
    const skip = cursor && /^\d+$/.test(cursor) ? Number(cursor) : 0;
    const found: ThreadSummary[] = [];
    let page: string | null = null;
    let looked = 0;
    do {
      const listed = await this.threads.list({ owner: principal.subject }, PAGE, page);
      for (const { thread } of listed.items) {
        const { id, title, updatedAt } = thread.toPrimitives();
        const folded = fold(title);
        if (words.every((word) => folded.includes(word))) found.push({ id, title, updatedAt });
      }
      looked += listed.items.length;
      page = listed.nextCursor;
    } while (page && looked < SEARCHED_THREADS && found.length <= skip + limit);
    const threads = found.slice(skip, skip + limit);
    return { threads, nextCursor: found.length > skip + limit ? String(skip + limit) : null };
  }
}

/** Lower case, accents dropped, whitespace folded: how a title and a query are compared. */
function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}
