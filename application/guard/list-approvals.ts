import type { Clock } from '../../ports/clock.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ApprovalList, Paged } from '../../ports/use-cases/guard.js';
import type { ApprovalBook } from './approval-book.js';
import { approvalView } from './approval-view.js';

/** `GET /approvals`: the caller's pending approvals, newest first (expired ones drop out). */
export class ListApprovals implements UseCase<Paged, ApprovalList> {
  constructor(
    private readonly approvals: ApprovalBook,
    private readonly clock: Clock,
  ) {}

  async execute(query: Paged): Promise<ApprovalList> {
    const now = this.clock.now().toISOString();
    const page = await this.approvals.list({ subject: query.principal.subject, state: 'pending' }, query.limit ?? 50, query.cursor ?? null);
    return {
      approvals: page.items.filter(({ approval }) => approval.isPendingAt(now)).map(({ approval }) => approvalView(approval, now)),
      nextCursor: page.nextCursor,
    };
  }
}
