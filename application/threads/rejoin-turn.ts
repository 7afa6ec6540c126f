import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../../ports/use-case.js';
import type { TurnStream } from '../../ports/use-cases/threads.js';
import type { ThreadBook } from './thread-book.js';
import type { TurnHub } from './turn-hub.js';

/** `GET /threads/:id/stream`: joins the turn in flight on this instance, replaying what it missed. */
export class RejoinTurn implements UseCase<{ principal: Principal; threadId: string }, TurnStream | null> {
  constructor(
    private readonly threads: ThreadBook,
    private readonly hub: TurnHub,
  ) {}

  async execute(input: { principal: Principal; threadId: string }): Promise<TurnStream | null> {
    await this.threads.ownedBy(input.principal.subject, input.threadId);
    return this.hub.find(input.threadId)?.read(true) ?? null;
  }
}
