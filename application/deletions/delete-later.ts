import { PendingDeletion, type DeletableKind } from '../../domain/deletions/pending-deletion.js';
import { NotFound } from '../../domain/errors.js';
import type { Principal } from '../../domain/principal.js';
import type { Clock } from '../../ports/clock.js';
import type { UseCase } from '../../ports/use-case.js';
import type { PendingDeletionView } from '../../ports/use-cases/deletions.js';
import type { Deletable } from './deletable.js';
import { deletionView } from './deletion-view.js';
import type { PendingDeletionBook } from './pending-deletion-book.js';

export interface DeleteLaterDeps {
  readonly book: PendingDeletionBook;
  /** The families mounted in this deployment, by kind; another kind names nothing here (404). */
  readonly deletables: ReadonlyMap<DeletableKind, Deletable>;
  readonly clock: Clock;
  readonly undoSeconds: number;
  /** Asks for a purge at the window's end on this instance; the sweep is the backstop. */
  readonly wakeAt?: (at: Date) => void;
}

/**
 * `POST /deletions`: the thing goes out of use at once and is deleted for good when its undo
 * window closes. What safety needs at once (a grant's revoke) happens before the deletion is
 * recorded, so a failure in between leaves it revoked, never granting. Asking again answers the
 * deletion already pending.
 */
export class DeleteLater implements UseCase<{ principal: Principal; kind: DeletableKind; id: string }, PendingDeletionView> {
  constructor(private readonly deps: DeleteLaterDeps) {}

  async execute(input: { principal: Principal; kind: DeletableKind; id: string }): Promise<PendingDeletionView> {
    const deletable = this.deps.deletables.get(input.kind);
    if (!deletable) throw new NotFound('Item');
    const pending = await this.deps.book.find(input.id);
    if (pending) {
      if (pending.deletion.owner !== input.principal.subject || pending.deletion.kind !== input.kind) throw new NotFound('Item');
      return deletionView(pending.deletion);
    }
    const label = await deletable.describe(input.principal, input.id);
    await deletable.suspend?.(input.principal, input.id);
    const held = await this.deps.book.hold(
      PendingDeletion.request({ ...input, label, now: this.deps.clock.now(), undoSeconds: this.deps.undoSeconds }),
    );
    this.deps.wakeAt?.(new Date(held.undoUntil));
    return deletionView(held);
  }
}
