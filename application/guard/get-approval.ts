import type { Principal } from '../../domain/principal.js';
import type { Clock } from '../../ports/clock.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ApprovalView } from '../../ports/use-cases/guard.js';
import type { ApprovalBook } from './approval-book.js';
import { approvalView } from './approval-view.js';

/** `GET /approvals/:id`: pending without `request` means it is executing; keep polling. */
export class GetApproval implements UseCase<{ principal: Principal; approvalId: string }, ApprovalView> {
  constructor(
    private readonly approvals: ApprovalBook,
    private readonly clock: Clock,
  ) {}

  async execute(input: { principal: Principal; approvalId: string }): Promise<ApprovalView> {
    const { approval } = await this.approvals.ownedBy(input.principal.subject, input.approvalId);
    return approvalView(approval, this.clock.now().toISOString());
  }
}
