import type { DeletableKind } from '../../domain/deletions/pending-deletion.js';
import { NotFound } from '../../domain/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { Deletable } from './deletable.js';
import type { PendingDeletionBook } from './pending-deletion-book.js';

/**
 * Carries out every deletion whose undo window closed, on whichever instance gets there first:
 * each is marked as purging with a swap on its revision (an undo racing it then finds it too
 * late, another instance finds it taken), deleted through its family, and only then forgotten.
 * A purge that fails stays marked and is taken up again once its lease lapses.
 */
export class PurgeDueDeletions {
  constructor(
    private readonly book: PendingDeletionBook,
    /** Asked only when something is due: the families are not built for a sweep with nothing to do. */
    private readonly deletables: () => ReadonlyMap<DeletableKind, Deletable>,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** The ids deleted for good by this call. */
  async execute(): Promise<string[]> {
    const purged: string[] = [];
    for (const loaded of await this.book.everyPending()) {
      const now = this.clock.now();
      const { deletion } = loaded;
      if (!deletion.isDue(now)) continue;
      // A family switched off since keeps its things until it is back.
      const deletable = this.deletables().get(deletion.kind);
      if (!deletable) continue;
      const taken = await this.book.swap(loaded, deletion.purging(now));
      if (!taken) continue;
      try {
        await deletable.purge(deletion.principal, deletion.id);
      } catch (error) {
        // Already gone (deleted at once meanwhile): nothing left to do but forget the pending deletion.
        if (!(error instanceof NotFound)) {
          this.logger.error('a deletion past its undo window failed; it is tried again later', {
            kind: deletion.kind,
            id: deletion.id,
            cause: error instanceof Error ? error.message : String(error),
          });
          continue;
        }
      }
      await this.book.consume(taken);
      purged.push(deletion.id);
    }
    return purged;
  }
}
