import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ThreadBook } from './thread-book.js';
import type { TurnHub } from './turn-hub.js';
import type { TurnStopper } from './turn-stopper.js';
import type { ThreadFiles } from '../files/thread-files.js';

/**
 * `DELETE /threads/:id`: a turn in flight on it is ended first, so nothing writes after: aborted
 * at once here, stopped (and waited for) on another instance. Its files go before the thread
 * itself, so a deletion that failed half-way can be asked again and leaves no file behind.
 */
export class DeleteThread implements UseCase<{ principal: Principal; threadId: string }, void> {
  constructor(
    private readonly threads: ThreadBook,
    private readonly hub: TurnHub,
    private readonly stopper: TurnStopper,
    private readonly files?: ThreadFiles,
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
    await this.files?.deleteAllOf(input.threadId);
    await this.threads.delete(input.threadId);
  }
}
