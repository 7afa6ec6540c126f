import { ApprovalAlreadyDecided } from '../../domain/guard/approval.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ApprovalView, BatchDecision } from '../../ports/use-cases/guard.js';
import type { ApprovalBook, LoadedApproval } from './approval-book.js';
import { approvalView } from './approval-view.js';
import type { DecisionEffects } from './decide-approval.js';

/**
 * `POST /approvals/decide`: all or nothing. Each approval is first held for this batch (a claim),
 * so no single decision can slip in between; if any hold fails, every hold is released and
 * nothing is decided.
 */
export class DecideApprovals implements UseCase<BatchDecision, { approvals: ReadonlyArray<ApprovalView> }> {
  constructor(
    private readonly approvals: ApprovalBook,
    private readonly effects: DecisionEffects,
    private readonly clock: Clock,
    private readonly ids: Ids,
  ) {}

  async execute(batch: BatchDecision): Promise<{ approvals: ReadonlyArray<ApprovalView> }> {
    const now = this.clock.now().toISOString();
    // Each ref is an `apr_` id or a tool-call id; both may name the same approval, decided once.
    // Holding in one canonical order (by `apr_` id) means two racing batches meet on the same
    // first approval, so one of them takes the whole contested set instead of both failing halfway.
    const named = await Promise.all([...new Set(batch.approvalIds)].map((ref) => this.approvals.ownedBy(batch.principal.subject, ref)));
    const loaded = [...new Map(named.map((one) => [one.approval.id, one])).values()].sort((a, b) =>
      a.approval.id < b.approval.id ? -1 : a.approval.id > b.approval.id ? 1 : 0,
    );
    for (const { approval } of loaded) {
      if (!approval.isPendingAt(now) || approval.isHeldAt(now)) throw new ApprovalAlreadyDecided(approval.id, approval.decidedAs(now));
    }

    const batchId = this.ids.mint('batch');
    const held: LoadedApproval[] = [];
    for (const one of loaded) {
      const holding = one.approval.holdFor(batchId, now);
      if (!(await this.approvals.swap(one, holding))) {
        await this.release(held);
        const current = await this.approvals.find(one.approval.id);
        throw new ApprovalAlreadyDecided(one.approval.id, current?.approval.decidedAs(now) ?? 'expired');
      }
      held.push((await this.approvals.find(one.approval.id))!);
    }

    const views: ApprovalView[] = [];
    for (const one of held) {
      const decided = batch.approve ? one.approval.approve(now, null, batchId) : one.approval.deny(now, batchId);
      await this.approvals.swapOrConflict(one, decided, now);
      await this.effects.apply(decided, batch.approve, now);
      views.push(approvalView(decided, now));
    }
    return { approvals: views };
  }

  private async release(held: ReadonlyArray<LoadedApproval>): Promise<void> {
    for (const one of held) await this.approvals.swap(one, one.approval.release());
  }
}
