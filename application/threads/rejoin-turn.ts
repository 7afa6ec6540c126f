import type { Principal } from '../../domain/principal.js';
import type { Clock } from '../../ports/clock.js';
import type { UseCase } from '../../ports/use-case.js';
import type { TurnStream } from '../../ports/use-cases/threads.js';
import type { ThreadBook } from './thread-book.js';
import type { TurnHub } from './turn-hub.js';
import type { TurnMirrors } from './turn-mirrors.js';

/**
 * `GET /threads/:id/stream`: joins the turn in flight on the thread, replayed from its first
 * chunk, wherever it runs: read here when this instance runs it, else followed from its feed.
 * Null when no turn is in flight.
 */
export class RejoinTurn implements UseCase<{ principal: Principal; threadId: string }, TurnStream | null> {
  constructor(
    private readonly threads: ThreadBook,
    private readonly hub: TurnHub,
    private readonly mirrors: TurnMirrors,
    private readonly clock: Clock,
  ) {}

  async execute(input: { principal: Principal; threadId: string }): Promise<TurnStream | null> {
    const loaded = await this.threads.ownedBy(input.principal.subject, input.threadId);
    const here = this.hub.find(input.threadId);
    if (here) return here.read(true);
    const inFlight = loaded.thread.turnInFlight(this.clock.now().toISOString());
    return inFlight ? this.mirrors.read(input.threadId, inFlight.id) : null;
  }
}
