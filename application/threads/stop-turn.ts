import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ThreadBook } from './thread-book.js';
import type { TurnHub } from './turn-hub.js';

/**
 * `POST /threads/:id/stop`: the person stops the turn in flight on this instance at once (a
 * client that merely goes away leaves it running for a while, so it can rejoin). Resolves once
 * what was produced is saved, so a new turn may start right after.
 */
export class StopTurn implements UseCase<{ principal: Principal; threadId: string }, { stopped: boolean }> {
  constructor(
    private readonly threads: ThreadBook,
    private readonly hub: TurnHub,
  ) {}

  async execute(input: { principal: Principal; threadId: string }): Promise<{ stopped: boolean }> {
    await this.threads.ownedBy(input.principal.subject, input.threadId);
    const live = this.hub.find(input.threadId);
    if (!live) return { stopped: false };
    live.stop();
    await this.hub.settled(input.threadId);
    return { stopped: true };
  }
}
