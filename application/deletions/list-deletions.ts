import type { Principal } from '../../domain/principal.js';
import type { Clock } from '../../ports/clock.js';
import type { UseCase } from '../../ports/use-case.js';
import type { PendingDeletionView } from '../../ports/use-cases/deletions.js';
import { deletionView } from './deletion-view.js';
import type { PendingDeletionBook } from './pending-deletion-book.js';

/** `GET /deletions`: what the caller can still bring back, soonest to go first. */
export class ListDeletions implements UseCase<{ principal: Principal }, { deletions: ReadonlyArray<PendingDeletionView> }> {
  constructor(
    private readonly book: PendingDeletionBook,
    private readonly clock: Clock,
  ) {}

  async execute(input: { principal: Principal }) {
    const now = this.clock.now();
    const open = (await this.book.of(input.principal.subject)).filter((deletion) => deletion.canUndo(now));
    open.sort((a, b) => a.undoUntil.localeCompare(b.undoUntil));
    return { deletions: open.map(deletionView) };
  }
}
