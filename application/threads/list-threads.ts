import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ThreadSummary } from '../../ports/use-cases/threads.js';
import type { ThreadBook } from './thread-book.js';

/** `GET /threads`: summaries only, newest first; the cost follows the page, not the messages. */
export class ListThreads implements UseCase<
  { principal: Principal; limit?: number; cursor?: string | null },
  { threads: ReadonlyArray<ThreadSummary>; nextCursor: string | null }
> {
  constructor(private readonly threads: ThreadBook) {}

  async execute(input: { principal: Principal; limit?: number; cursor?: string | null }) {
    const page = await this.threads.list({ owner: input.principal.subject }, input.limit ?? 50, input.cursor ?? null);
    return {
      threads: page.items.map(({ thread }) => {
        const { id, title, updatedAt } = thread.toPrimitives();
        return { id, title, updatedAt };
      }),
      nextCursor: page.nextCursor,
    };
  }
}
