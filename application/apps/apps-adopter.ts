import type { SessionAdopter } from '../identity/session-adopter.js';
import { LOST_RACE, retryOnConflict } from '../shared/retry-on-conflict.js';
import type { AppBook } from './app-book.js';

/**
 * Moves an anonymous session's apps to the signed-in user. Records, blobs and versions are keyed
 * by app id, so they follow without being touched. Idempotent: a rerun moves what is left.
 */
export class AppsAdopter implements SessionAdopter {
  readonly family = 'apps';

  constructor(private readonly book: AppBook) {}

  async adopt(fromSubject: string, toSubject: string): Promise<void> {
    for (const loaded of await this.book.all({ owner: fromSubject })) {
      let current = loaded;
      // An app that never stops changing stays behind; the adoption is rerun on the next sign-in.
      await retryOnConflict(
        async () => {
          if (await this.book.swap(current, current.app.movedTo(toSubject))) return;
          const again = await this.book.find(loaded.app.id);
          if (!again || !again.app.isOwnedBy(fromSubject)) return;
          current = again;
          return LOST_RACE;
        },
        { exhausted: () => undefined },
      );
    }
  }
}
