import { z } from 'zod';
import { DELETABLE_KINDS } from '../../../domain/deletions/pending-deletion.js';
import { isoTime } from './common-shapes.js';

export const DeletableKind = z
  .enum(DELETABLE_KINDS)
  .meta({ id: 'DeletableKind', description: 'What kind of thing a deletion with a way back names.' });

export const PendingDeletion = z
  .object({
    id: z.string().describe("The thing's own id (`app_…`, `atm_…`, `mem_…`, `thr_…`, `grt_…`, `con_…`)."),
    kind: DeletableKind,
    label: z.string().describe('What the person calls it (a title, a name, a tool, a toolkit).'),
    undoUntil: isoTime.describe('Until when `POST /deletions/{id}/undo` brings it back; it is deleted for good after.'),
  })
  .meta({
    id: 'PendingDeletion',
    description:
      'A deletion waiting out its undo window: the thing is already out of use (hidden from its list, not fired, a grant revoked, a connection not used) and is deleted for good after `undoUntil`.',
  });

export const PendingDeletionList = z
  .object({ deletions: z.array(PendingDeletion).describe('Soonest to go first.') })
  .meta({ id: 'PendingDeletionList' });
