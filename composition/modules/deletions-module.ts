import { get, getOptional, porterModule, recordsOf, TOKENS } from '../tokens.js';
import { APP_TOKENS } from './apps-tokens.js';
import { AUTOMATION_TOKENS } from './automations-tokens.js';
import { CONNECTION_TOKENS } from './connections-tokens.js';
import { DELETION_TOKENS } from './deletions-tokens.js';
import { GUARD_TOKENS } from './guard-tokens.js';
import { MEMORY_TOKENS } from './memory-tokens.js';
import { THREAD_TOKENS } from './threads-tokens.js';
import type { DeletableKind, PendingDeletionPrimitives } from '../../domain/deletions/pending-deletion.js';
import type { Deletable } from '../../application/deletions/deletable.js';
import { PendingDeletionBook } from '../../application/deletions/pending-deletion-book.js';
import { DeleteLater } from '../../application/deletions/delete-later.js';
import { UndoDeletion } from '../../application/deletions/undo-deletion.js';
import { ListDeletions } from '../../application/deletions/list-deletions.js';
import { PurgeDueDeletions } from '../../application/deletions/purge-due-deletions.js';
import {
  appDeletable,
  automationDeletable,
  connectionDeletable,
  grantDeletable,
  memoryDeletable,
  threadDeletable,
} from '../../application/deletions/family-deletables.js';
import { DeletionAlarm } from '../../adapters/scheduler/deletion-alarm.js';
import { deletionRoutes } from '../../adapters/http/routes/deletion-routes.js';
import type { Resolver } from '../tokens.js';

/** The families this deployment mounts, each with its deletion with a way back. */
function deletablesOf(ctx: Resolver): ReadonlyMap<DeletableKind, Deletable> {
  const all: Deletable[] = [
    threadDeletable(get(ctx, THREAD_TOKENS.ThreadUseCases)),
    memoryDeletable(get(ctx, MEMORY_TOKENS.MemoryUseCases)),
    connectionDeletable(get(ctx, CONNECTION_TOKENS.ConnectionsUseCases)),
    grantDeletable({
      grants: get(ctx, GUARD_TOKENS.GrantBook),
      revoke: get(ctx, GUARD_TOKENS.GuardUseCases).revokeGrant,
      audit: get(ctx, TOKENS.AuditTrail),
    }),
  ];
  const apps = getOptional(ctx, APP_TOKENS.AppsUseCases);
  if (apps) all.push(appDeletable(apps));
  const automations = getOptional(ctx, AUTOMATION_TOKENS.AutomationUseCases);
  if (automations) all.push(automationDeletable(automations));
  return new Map(all.map((deletable) => [deletable.kind, deletable]));
}

/**
 * Deleting with a way back (`/deletions`): pending deletions in the store, carried out by a timer
 * on the instance that was asked, by every tick's sweep (`Tick` runs `PurgeDueDeletions`), and at
 * start (what a restart left due).
 */
export const deletionsModule = porterModule((bind) => {
  bind.singleton(
    DELETION_TOKENS.PendingDeletions,
    (ctx) => new PendingDeletionBook(recordsOf<PendingDeletionPrimitives>(ctx, 'pending-deletions')),
  );
  bind.singleton(DELETION_TOKENS.Deletables, (ctx) => deletablesOf(ctx));
  bind.singleton(
    DELETION_TOKENS.PurgeDueDeletions,
    (ctx) =>
      new PurgeDueDeletions(
        get(ctx, DELETION_TOKENS.PendingDeletions),
        () => get(ctx, DELETION_TOKENS.Deletables),
        get(ctx, TOKENS.Clock),
        get(ctx, TOKENS.Logger),
      ),
  );
  bind.singleton(
    DELETION_TOKENS.DeletionAlarm,
    (ctx) => new DeletionAlarm(() => get(ctx, DELETION_TOKENS.PurgeDueDeletions).execute(), get(ctx, TOKENS.Logger)),
  );
  bind(TOKENS.Background).toDynamicValue((ctx) => get(ctx, DELETION_TOKENS.DeletionAlarm));
  bind.singleton(DELETION_TOKENS.DeletionUseCases, (ctx) => {
    const book = get(ctx, DELETION_TOKENS.PendingDeletions);
    const alarm = get(ctx, DELETION_TOKENS.DeletionAlarm);
    return {
      deleteLater: new DeleteLater({
        book,
        deletables: get(ctx, DELETION_TOKENS.Deletables),
        clock: get(ctx, TOKENS.Clock),
        undoSeconds: get(ctx, TOKENS.Config).undoSeconds,
        wakeAt: (at) => alarm.wakeAt(at),
      }),
      listDeletions: new ListDeletions(book, get(ctx, TOKENS.Clock)),
      undoDeletion: new UndoDeletion(book, get(ctx, DELETION_TOKENS.Deletables), get(ctx, TOKENS.Clock)),
    };
  });
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) => deletionRoutes(get(ctx, DELETION_TOKENS.DeletionUseCases)));
});
