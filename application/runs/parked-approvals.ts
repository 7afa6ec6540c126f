import type { Clock } from '../../ports/clock.js';
import type { ApprovalBook } from '../guard/approval-book.js';

/** The approvals a run's calls parked: still unanswered, or approved but not yet executed. */
export class ParkedApprovals {
  constructor(
    private readonly approvals: ApprovalBook,
    private readonly clock: Clock,
  ) {}

  /** True while some call of the run still waits for the owner's answer. */
  async awaitingAnswer(runId: string): Promise<boolean> {
    const now = this.clock.now().toISOString();
    return (await this.approvals.all({ run: runId, state: 'pending' })).some(({ approval }) => approval.isPendingAt(now));
  }

  /** A stopped or ended run drops them: none of them will run now. Returns how many were dropped. */
  async drop(runId: string): Promise<number> {
    const now = this.clock.now().toISOString();
    let dropped = 0;
    for (const loaded of await this.approvals.all({ run: runId })) {
      const expired = loaded.approval.expire(now, 'dropped');
      if (expired && (await this.approvals.swap(loaded, expired))) dropped += 1;
    }
    return dropped;
  }
}
