import type { ApprovalBook } from '../guard/approval-book.js';

/**
 * Approvals granted in a client against an app's earlier content (pending, or approved and not
 * yet run) stop counting once the content they were shown is gone: they expire as `invalidated`.
 */
export class ApprovalInvalidation {
  constructor(private readonly approvals: ApprovalBook) {}

  async invalidate(appId: string, at: string): Promise<number> {
    let invalidated = 0;
    for (const state of ['pending', 'approved'] as const) {
      for (const loaded of await this.approvals.all({ app: appId, state })) {
        let current: typeof loaded | null = loaded;
        for (let attempt = 0; current && attempt < 3; attempt++) {
          const now = current.approval.stateAt(at);
          if (now !== 'pending' && now !== 'approved') break;
          if (await this.approvals.move(current, current.approval.expire(at, 'invalidated'))) {
            invalidated += 1;
            break;
          }
          current = await this.approvals.find(loaded.approval.id);
        }
      }
    }
    return invalidated;
  }
}
