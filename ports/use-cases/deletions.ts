import type { DeletableKind } from '../../domain/deletions/pending-deletion.js';
import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../use-case.js';

/** A deletion waiting out its undo window, as its person sees it. */
export interface PendingDeletionView {
  /** The thing's own id (`app_…`, `atm_…`, `mem_…`, `thr_…`, `grt_…`, `con_…`). */
  readonly id: string;
  readonly kind: DeletableKind;
  /** What the person calls it, to say what an undo brings back. */
  readonly label: string;
  /** Until when `POST /deletions/:id/undo` brings it back; the deletion is carried out for good after. */
  readonly undoUntil: string;
}

export interface DeletionUseCases {
  /** `POST /deletions`: out of use at once, deleted for good after the window. */
  readonly deleteLater: UseCase<{ principal: Principal; kind: DeletableKind; id: string }, PendingDeletionView>;
  /** `GET /deletions`: the caller's deletions still within their window. */
  readonly listDeletions: UseCase<{ principal: Principal }, { deletions: ReadonlyArray<PendingDeletionView> }>;
  /** `POST /deletions/:id/undo`: back as it was; too late once the window closed. */
  readonly undoDeletion: UseCase<{ principal: Principal; id: string }, PendingDeletionView>;
}
