import type { Principal } from '../../domain/principal.js';
import type { Clock } from '../../ports/clock.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ThreadSummary } from '../../ports/use-cases/threads.js';
import { LOST_RACE, retryOnConflict } from '../shared/retry-on-conflict.js';
import type { ThreadBook } from './thread-book.js';

type Input = { principal: Principal; threadId: string; title: string };

/**
 * `PATCH /threads/:id`: the person renames a conversation. A turn may be saving the same summary
 * (its lease, its count), so the new title lands on the latest revision.
 */
export class RenameThread implements UseCase<Input, ThreadSummary> {
  constructor(
    private readonly threads: ThreadBook,
    private readonly clock: Clock,
  ) {}

  async execute({ principal, threadId, title }: Input): Promise<ThreadSummary> {
    return retryOnConflict(
      async () => {
        const loaded = await this.threads.ownedBy(principal.subject, threadId);
        const saved = await this.threads.swap(loaded, loaded.thread.renamed(title, this.clock.now().toISOString()));
        if (!saved) return LOST_RACE;
        const { id, title: named, updatedAt } = saved.thread.toPrimitives();
        return { id, title: named, updatedAt };
      },
      { what: 'The thread' },
    );
  }
}
