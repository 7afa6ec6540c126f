import type { SessionAdopter } from '../identity/session-adopter.js';
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
      for (let attempt = 0; attempt < 5; attempt++) {
        if (await this.book.move(current, current.app.movedTo(toSubject))) break;
        const again = await this.book.find(loaded.app.id);
        if (!again || !again.app.isOwnedBy(fromSubject)) break;
        current = again;
      }
    }
  }
}
