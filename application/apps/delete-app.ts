import type { UseCase } from '../../ports/use-case.js';
import type { Principal } from '../../domain/principal.js';
import type { AppBook } from './app-book.js';
import type { AppData } from './app-data.js';
import type { ServedRollout } from './served-rollout.js';

/** Removes an app with everything it owns: its records, blobs, versions and served sandbox. */
export class DeleteApp implements UseCase<{ principal: Principal; appId: string }, void> {
  constructor(
    private readonly book: AppBook,
    private readonly data: AppData,
    private readonly rollout: ServedRollout,
  ) {}

  async execute({ principal, appId }: { principal: Principal; appId: string }): Promise<void> {
    const { app } = await this.book.ownedBy(principal.subject, appId);
    // First, so a sandbox that cannot be removed keeps the app (and the delete can be retried).
    if (app.served) await this.rollout.discard(app.id, app.document);
    await this.data.removeAll(app.id);
    await this.book.remove(app.id);
  }
}
