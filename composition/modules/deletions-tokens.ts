import { token } from '../tokens.js';
import type { PendingDeletionBook } from '../../application/deletions/pending-deletion-book.js';
import type { DeletableKind } from '../../domain/deletions/pending-deletion.js';
import type { Deletable } from '../../application/deletions/deletable.js';
import type { PurgeDueDeletions } from '../../application/deletions/purge-due-deletions.js';
import type { DeletionAlarm } from '../../adapters/scheduler/deletion-alarm.js';
import type { DeletionUseCases } from '../../ports/use-cases/deletions.js';

/** Deletions with an undo window: what deletions-module.ts binds. */
export const DELETION_TOKENS = {
  /** Deletions waiting out their undo window, shared by every instance on the store. */
  PendingDeletions: token<PendingDeletionBook>('PendingDeletions'),
  /** Each mounted family's deletion with a way back, by kind. */
  Deletables: token<ReadonlyMap<DeletableKind, Deletable>>('Deletables'),
  PurgeDueDeletions: token<PurgeDueDeletions>('PurgeDueDeletions'),
  /** Purges on time on this instance (the tick's sweep is the backstop). */
  DeletionAlarm: token<DeletionAlarm>('DeletionAlarm'),
  DeletionUseCases: token<DeletionUseCases>('DeletionUseCases'),
};
