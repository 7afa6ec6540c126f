import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ThreadSummary } from '../../ports/use-cases/threads.js';
import type { ThreadBook } from './thread-book.js';
import type { HeldDeletions } from '../deletions/deletable.js';

/** `GET /threads`: summaries only, newest first; the cost follows the page, not the messages. */
export class ListThreads implements UseCase<
  { principal: Principal; limit?: number; cursor?: string | null },
  { threads: ReadonlyArray<ThreadSummary>; nextCursor: string | null }
> {
  constructor(
    private readonly threads: ThreadBook,
    private readonly held?: HeldDeletions,
  ) {}

  async execute(input: { principal: Principal; limit?: number; cursor?: string | null }) {
    const page = await this.threads.list({ owner: input.principal.subject }, input.limit ?? 50, input.cursor ?? null);
    // One waiting out its undo window is left out.
    const held = (await this.held?.heldIds(input.principal.subject, 'thread')) ?? new Set<string>();
    return {
      threads: page.items
        .filter(({ thread }) => !held.has(thread.id))
        .map(({ thread }) => {
          const { id, title, updatedAt } = thread.toPrimitives();
          return { id, title, updatedAt };
        }),
      nextCursor: page.nextCursor,
    };
  }
}
