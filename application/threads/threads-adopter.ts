import type { SessionAdopter } from '../identity/session-adopter.js';
import type { ThreadBook } from './thread-book.js';

/**
 * Moves an anonymous session's threads (their messages follow, being keyed by thread), and their
 * passages in the text index with them, so the signed-in person finds their words and the retired
 * session finds nothing.
 */
export class ThreadsAdopter implements SessionAdopter {
  readonly family = 'threads';

  constructor(private readonly threads: ThreadBook) {}

  async adopt(fromSubject: string, toSubject: string): Promise<void> {
    for (const { thread } of await this.threads.all({ owner: fromSubject })) {
      await this.threads.save(thread.movedTo(toSubject));
      await this.threads.reindex(thread.id);
    }
  }
}
