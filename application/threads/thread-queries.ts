import { Thread } from '../../domain/threads/thread.js';
import type { Principal } from '../../domain/principal.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ThreadDetail, ThreadSummary } from '../../ports/use-cases/threads.js';
import type { ThreadBook } from './thread-book.js';
import type { TurnHub } from './turn-hub.js';
import type { TurnStopper } from './turn-stopper.js';

export class CreateThread implements UseCase<{ principal: Principal }, { id: string }> {
  constructor(
    private readonly threads: ThreadBook,
    private readonly ids: Ids,
    private readonly clock: Clock,
  ) {}

  async execute({ principal }: { principal: Principal }): Promise<{ id: string }> {
    const thread = Thread.start({ id: this.ids.mint('thread'), owner: principal.subject, now: this.clock.now().toISOString() });
    await this.threads.save(thread);
    return { id: thread.id };
  }
}

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

export class GetThread implements UseCase<{ principal: Principal; threadId: string }, ThreadDetail> {
  constructor(private readonly threads: ThreadBook) {}

  async execute(input: { principal: Principal; threadId: string }): Promise<ThreadDetail> {
    const { thread } = await this.threads.ownedBy(input.principal.subject, input.threadId);
    return { id: thread.id, title: thread.toPrimitives().title, messages: await this.threads.messagesOf(thread.id) };
  }
}

/**
 * `DELETE /threads/:id`: a turn in flight on it is ended first, so nothing writes after: aborted
 * at once here, stopped (and waited for) on another instance.
 */
export class DeleteThread implements UseCase<{ principal: Principal; threadId: string }, void> {
  constructor(
    private readonly threads: ThreadBook,
    private readonly hub: TurnHub,
    private readonly stopper: TurnStopper,
  ) {}

  async execute(input: { principal: Principal; threadId: string }): Promise<void> {
    await this.threads.ownedBy(input.principal.subject, input.threadId);
    const live = this.hub.find(input.threadId);
    if (live) {
      live.abort.abort(new Error('the thread was deleted'));
      await this.hub.settled(input.threadId);
    } else {
      await this.stopper.stop(input.threadId);
    }
    await this.threads.delete(input.threadId);
  }
}
