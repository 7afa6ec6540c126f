import type { DeletableKind } from '../../domain/deletions/pending-deletion.js';
import { Conflict } from '../../domain/errors.js';
import type { Principal } from '../../domain/principal.js';
import type { Clock } from '../../ports/clock.js';
import type { UseCase } from '../../ports/use-case.js';
import type { PendingDeletionView } from '../../ports/use-cases/deletions.js';
import type { Deletable } from './deletable.js';
import { deletionView } from './deletion-view.js';
import type { PendingDeletionBook } from './pending-deletion-book.js';

const TOO_LATE = 'Too late to undo: the window closed and it is being deleted';

/**
 * `POST /deletions/:id/undo`: the pending deletion is taken away (of an undo and a purge racing,
 * the one whose swap lands first wins), then what was suspended at once is restored.
 */
export class UndoDeletion implements UseCase<{ principal: Principal; id: string }, PendingDeletionView> {
  constructor(
    private readonly book: PendingDeletionBook,
    private readonly deletables: ReadonlyMap<DeletableKind, Deletable>,
    private readonly clock: Clock,
  ) {}

  async execute(input: { principal: Principal; id: string }): Promise<PendingDeletionView> {
    const loaded = await this.book.ownedBy(input.principal.subject, input.id);
    if (!loaded.deletion.canUndo(this.clock.now())) throw new Conflict(TOO_LATE, { undoUntil: loaded.deletion.undoUntil });
    if (!(await this.book.consume(loaded))) throw new Conflict(TOO_LATE, { undoUntil: loaded.deletion.undoUntil });
    await this.deletables.get(loaded.deletion.kind)?.restore?.(input.principal, input.id);
    return deletionView(loaded.deletion);
  }
}
