import { get, getOptional, porterModule, recordsOf, TOKENS } from '../tokens.js';
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
    threadDeletable(get(ctx, TOKENS.ThreadUseCases)),
    memoryDeletable(get(ctx, TOKENS.MemoryUseCases)),
    connectionDeletable(get(ctx, TOKENS.ConnectionsUseCases)),
    grantDeletable({
      grants: get(ctx, TOKENS.GrantBook),
      revoke: get(ctx, TOKENS.GuardUseCases).revokeGrant,
      audit: get(ctx, TOKENS.AuditTrail),
    }),
  ];
  const apps = getOptional(ctx, TOKENS.AppsUseCases);
  if (apps) all.push(appDeletable(apps));
  const automations = getOptional(ctx, TOKENS.AutomationUseCases);
  if (automations) all.push(automationDeletable(automations));
  return new Map(all.map((deletable) => [deletable.kind, deletable]));
}

/**
 * Deleting with a way back (`/deletions`): pending deletions in the store, carried out by a timer
 * on the instance that was asked, by every tick's sweep (`Tick` runs `PurgeDueDeletions`), and at
 * start (what a restart left due).
 */
export const deletionsModule = porterModule((bind) => {
  bind.singleton(TOKENS.PendingDeletions, (ctx) => new PendingDeletionBook(recordsOf<PendingDeletionPrimitives>(ctx, 'pending-deletions')));
  bind.singleton(TOKENS.Deletables, (ctx) => deletablesOf(ctx));
  bind.singleton(
    TOKENS.PurgeDueDeletions,
    (ctx) =>
      new PurgeDueDeletions(
        get(ctx, TOKENS.PendingDeletions),
        () => get(ctx, TOKENS.Deletables),
        get(ctx, TOKENS.Clock),
        get(ctx, TOKENS.Logger),
      ),
  );
  bind.singleton(
    TOKENS.DeletionAlarm,
    (ctx) => new DeletionAlarm(() => get(ctx, TOKENS.PurgeDueDeletions).execute(), get(ctx, TOKENS.Logger)),
  );
  bind(TOKENS.Background).toDynamicValue((ctx) => get(ctx, TOKENS.DeletionAlarm));
  bind.singleton(TOKENS.DeletionUseCases, (ctx) => {
    const book = get(ctx, TOKENS.PendingDeletions);
    const alarm = get(ctx, TOKENS.DeletionAlarm);
    return {
      deleteLater: new DeleteLater({
        book,
        deletables: get(ctx, TOKENS.Deletables),
        clock: get(ctx, TOKENS.Clock),
        undoSeconds: get(ctx, TOKENS.Config).undoSeconds,
        wakeAt: (at) => alarm.wakeAt(at),
      }),
      listDeletions: new ListDeletions(book, get(ctx, TOKENS.Clock)),
      undoDeletion: new UndoDeletion(book, get(ctx, TOKENS.Deletables), get(ctx, TOKENS.Clock)),
    };
  });
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) => deletionRoutes(get(ctx, TOKENS.DeletionUseCases)));
});
