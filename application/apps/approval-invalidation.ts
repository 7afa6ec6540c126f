import type { ApprovalBook, LoadedApproval } from '../guard/approval-book.js';
import { LOST_RACE, retryOnConflict } from '../shared/retry-on-conflict.js';

/**
 * Approvals granted in a client against an app's earlier content (pending, or approved and not
 * yet run) stop counting once the content they were shown is gone: they expire as `invalidated`.
 * That is both the edits asked for against it (they carry the app's id) and the calls its own
 * actions parked (the app is their session): an approved press of a button that was re-made
 * would otherwise run on the next identical press.
 */
export class ApprovalInvalidation {
  constructor(private readonly approvals: ApprovalBook) {}

  async invalidate(appId: string, at: string): Promise<number> {
    const found = new Map<string, LoadedApproval>();
    for (const state of ['pending', 'approved'] as const) {
      const filters: ReadonlyArray<Record<string, string>> = [
        { app: appId, state },
        { session: appId, state },
      ];
      for (const refs of filters) {
        for (const loaded of await this.approvals.all(refs)) found.set(loaded.approval.id, loaded);
      }
    }
    let invalidated = 0;
    for (const loaded of found.values()) {
      let current: LoadedApproval | null = loaded;
      const expired = await retryOnConflict(
        async () => {
          if (!current) return false;
          const next = current.approval.expire(at, 'invalidated');
          if (!next) return false;
          if (await this.approvals.swap(current, next)) return true;
          current = await this.approvals.find(loaded.approval.id);
          return LOST_RACE;
        },
        { exhausted: () => false },
      );
      if (expired) invalidated += 1;
    }
    return invalidated;
  }
}
