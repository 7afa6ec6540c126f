import { AlreadyServed } from '../../domain/apps/app-errors.js';
import { admitServerCode } from '../../domain/apps/server-code-rule.js';
import type { Principal } from '../../domain/principal.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { UseCase } from '../../ports/use-case.js';
import type { AppDetail } from '../../ports/use-cases/apps.js';
import type { AppBook } from './app-book.js';
import { detailOf } from './app-views.js';
import { contentHashOf } from './content-hash.js';
import type { ServedRollout } from './served-rollout.js';

/**
 * Graduates a tree app to a served app. Only when the scaffold is written, the server started and
 * the snapshot taken does the document become `ui: "http"` (one new version); any failed step
 * leaves the document untouched, the tree serving as before. An anonymous session may not
 * graduate (after the owner check, so someone else's id stays 404).
 */
export class GraduateApp implements UseCase<{ principal: Principal; appId: string }, AppDetail> {
  constructor(
    private readonly book: AppBook,
    private readonly rollout: ServedRollout,
    private readonly ids: Ids,
    private readonly clock: Clock,
  ) {}

  async execute({ principal, appId }: { principal: Principal; appId: string }): Promise<AppDetail> {
    const loaded = await this.book.ownedBy(principal.subject, appId);
    admitServerCode(principal, 'graduate');
    const { app } = loaded;
    if (app.document.ui === 'http') throw new AlreadyServed(app.id);
    const snapshotId = await this.rollout.graduate(app);
    const at = this.clock.now().toISOString();
    const graduated = app.graduated(
      { version: this.ids.mint('version'), contentHash: contentHashOf({ ...app.document, ui: 'http' }), at },
      snapshotId,
    );
    try {
      await this.book.swapContent(loaded, graduated, 'graduate');
    } catch (error) {
      await this.rollout.stop(app.id, app.document);
      throw error;
    }
    return detailOf(graduated);
  }
}
