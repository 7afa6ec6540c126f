import { asReadDuring } from '../../domain/threads/interruption.js';
import type { Principal } from '../../domain/principal.js';
import { versionsShown } from '../../domain/threads/message-versions.js';
import type { Thread } from '../../domain/threads/thread.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { Clock } from '../../ports/clock.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ThreadDetail } from '../../ports/use-cases/threads.js';
import type { ThreadBook } from './thread-book.js';
import type { TurnHolders } from './turn-holders.js';

/**
 * `GET /threads/:id`: the thread and its messages as a reader should take them. The answer a live
 * turn is writing shows no interruption mark (its checkpoints carry one until it finishes); a
 * person's message a dead instance's turn left unanswered shows one, so the chrome offers Retry.
 */
export class GetThread implements UseCase<{ principal: Principal; threadId: string }, ThreadDetail> {
  constructor(
    private readonly threads: ThreadBook,
    private readonly clock: Clock,
    /** Judges holds by the engine's liveness marks (PostgreSQL); absent, by their leases alone. */
    private readonly holders?: TurnHolders,
  ) {}

  async execute(input: { principal: Principal; threadId: string }): Promise<ThreadDetail> {
    const { thread: stored } = await this.threads.ownedBy(input.principal.subject, input.threadId);
    const now = this.clock.now().toISOString();
    const thread = (await this.holders?.freed(stored, now)) ?? stored;
    const turn = thread.turnInFlight(now) ? 'live' : thread.abandonedTurn(now) ? 'abandoned' : 'none';
    return threadDetail(thread, asReadDuring(await this.threads.messagesOf(thread.id), turn));
  }
}

/** The thread as a client reads it: its title, the messages shown, and which of them have other versions. */
export function threadDetail(thread: Thread, messages: ReadonlyArray<UiMessage>): ThreadDetail {
  return { id: thread.id, title: thread.toPrimitives().title, messages, versions: versionsShown(thread.forks, messages) };
}
