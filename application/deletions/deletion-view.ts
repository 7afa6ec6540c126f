import type { PendingDeletion } from '../../domain/deletions/pending-deletion.js';
import type { PendingDeletionView } from '../../ports/use-cases/deletions.js';

export function deletionView(deletion: PendingDeletion): PendingDeletionView {
  return { id: deletion.id, kind: deletion.kind, label: deletion.label, undoUntil: deletion.undoUntil };
}
