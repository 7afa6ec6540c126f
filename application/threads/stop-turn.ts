import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ThreadBook } from './thread-book.js';
import type { TurnStopper } from './turn-stopper.js';

/**
 * `POST /threads/:id/stop`: the owner stops the turn in flight on the thread, on whichever
 * instance runs it, cooperatively: the model's current step is cut, calls under way finish, what
 * was produced is saved, and approvals the turn parked stay to be decided. Resolves once the turn
 * ended (or after a bounded wait), so a new turn may start right after. `stopped` is false when
 * no turn was in flight; stopping again is harmless.
 */
export class StopTurn implements UseCase<{ principal: Principal; threadId: string }, { stopped: boolean }> {
  constructor(
    private readonly threads: ThreadBook,
    private readonly stopper: TurnStopper,
  ) {}

  async execute(input: { principal: Principal; threadId: string }): Promise<{ stopped: boolean }> {
    await this.threads.ownedBy(input.principal.subject, input.threadId);
    return { stopped: await this.stopper.stop(input.threadId) };
  }
}
