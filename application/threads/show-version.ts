import { forkOf, forkStart, switchedTo, TurnInFlight } from '../../domain/threads/message-versions.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ShowVersionRequest, ThreadDetail } from '../../ports/use-cases/threads.js';
import { threadDetail } from './get-thread.js';
import type { ThreadBook } from './thread-book.js';
import type { TurnHub } from './turn-hub.js';

/** What ShowVersion is built from. */
export interface ShowVersionDeps {
  readonly threads: ThreadBook;
  readonly hub: TurnHub;
  readonly ids: Ids;
  readonly clock: Clock;
  /** How long the switch holds the thread at most, should its instance die midway (the turn lease). */
  readonly leaseMs: number;
}

/**
 * `POST /threads/:id/messages/:messageId/versions`: the person shows another version of a message
 * that has versions. The thread's messages from that message on are put away as the version shown
 * until now, and the chosen version's come back. The switch holds the thread as a turn does, so no
 * turn writes it meanwhile; while a turn is in flight it is refused (409).
 */
export class ShowVersion implements UseCase<ShowVersionRequest, ThreadDetail> {
  constructor(private readonly deps: ShowVersionDeps) {}

  async execute({ principal, threadId, messageId, index }: ShowVersionRequest): Promise<ThreadDetail> {
    const { threads, hub, ids, clock, leaseMs } = this.deps;
    const loaded = await threads.ownedBy(principal.subject, threadId);
    const now = clock.now().toISOString();
    if (hub.find(threadId) || !loaded.thread.canStartTurnAt(now)) throw new TurnInFlight();
    const hold = ids.mint('turn');
    const held = await threads.swap(loaded, loaded.thread.startTurn(hold, now, leaseMs));
    if (!held) throw new TurnInFlight();
    try {
      const messages = await threads.messagesOf(threadId);
      const named = messages.some((m) => m.id === messageId) ? messageId : (await threads.sentMessage(threadId, messageId))?.id;
      const fork = forkOf(held.thread.forks, messages, named ?? messageId);
      const tail = messages.slice(forkStart(fork, messages)).map((m) => m.id);
      const change = switchedTo(held.thread.forks, fork, index, tail);
      await threads.shelveMessages(threadId, change.shelved);
      await threads.restoreMessages(threadId, change.restored, held.thread.owner);
      const shown = await threads.messagesOf(threadId);
      const at = clock.now().toISOString();
      const saved = await threads.update(threadId, (thread) => thread.showingVersions(change.forks, shown.length, at).endTurn(hold, at, 0));
      return threadDetail(saved ?? held.thread, shown);
    } catch (error) {
      await threads.update(threadId, (thread) => thread.endTurn(hold, clock.now().toISOString(), 0));
      throw error;
    }
  }
}
