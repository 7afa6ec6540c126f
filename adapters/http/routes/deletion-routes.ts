import { z } from 'zod';
import { DELETABLE_KINDS, type DeletableKind } from '../../../domain/deletions/pending-deletion.js';
import { idPattern, type IdKind } from '../../../domain/ids.js';
import type { DeletionUseCases } from '../../../ports/use-cases/deletions.js';
import { DeletableKind as KindShape, PendingDeletion, PendingDeletionList } from '../shapes/deletion-shapes.js';
import { json, jsonBody } from '../wire-route.js';
import { principalFamily, type WireRoutes } from '../wire-routes.js';
import { callerRoutes } from './caller-routes.js';

const ID_KIND: Record<DeletableKind, IdKind> = {
  app: 'app',
  automation: 'automation',
  memory: 'memory',
  thread: 'thread',
  grant: 'grant',
  connection: 'connection',
};

/** The id of any thing that can be deleted with a way back. */
const deletableId = z
  .string()
  .regex(
    new RegExp(DELETABLE_KINDS.map((kind) => idPattern(ID_KIND[kind]).source).join('|')),
    'must be the id of an app, automation, memory, thread, grant or connection',
  )
  .describe('The id of the thing being deleted.');

/** An id of another kind than `kind` names nothing of that kind: 404, like an unknown id. */
const deleteBody = z.strictObject({ kind: KindShape, id: deletableId });

/**
 * Deleting with a way back, for every family that deletes: the chrome's delete buttons. The
 * family's own `DELETE` stays what it was (gone at once) for API callers.
 */
export function deletionRoutes(deletions: DeletionUseCases): WireRoutes {
  const deletion = callerRoutes(deletions, { param: deletableId, key: 'id' });
  return principalFamily('Deletions', [
    deletion.get('/deletions', 'listDeletions', {
      summary: "The caller's deletions that can still be undone",
      responses: { 200: json('Pending deletions, soonest to go first.', PendingDeletionList) },
    }),
    deletion.post('/deletions', 'deleteLater', {
      summary: 'Delete an app, automation, memory, thread, grant or connection, with a way back',
      description:
        "The thing goes out of use at once: it leaves its list, an automation stops firing and cannot be started, armed or changed by hand (404), a grant is revoked, a connection is no longer used; it is deleted for good after the undo window (`undoSeconds`, default 10 s), by whichever instance sweeps first (the tick, or a timer on the instance that was asked). Asking again answers the deletion already pending. A thing that is not the caller's, or an id of another kind, is 404; a grant already revoked is 409; a connection without a broker configured is 501.",
      body: jsonBody(deleteBody, 'deletion'),
      responses: { 201: json('The pending deletion.', PendingDeletion) },
      errors: ['not-found', 'conflict', 'not-implemented', 'unavailable'],
    }),
    deletion.post('/deletions/:id/undo', 'undoDeletion', {
      summary: 'Undo a deletion within its window',
      description:
        'The thing is back as it was (a revoked grant grants again). After `undoUntil`, or once the deletion began, 409 `conflict`.',
      responses: { 200: json('The deletion undone.', PendingDeletion) },
      errors: ['conflict'],
    }),
  ]);
}
