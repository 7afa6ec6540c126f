import { grantFromApproval } from '../../domain/guard/grant-from-approval.js';
import type { Approval } from '../../domain/guard/approval.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ApprovalView, Decision } from '../../ports/use-cases/guard.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { ApprovalBook } from './approval-book.js';
import { approvalView } from './approval-view.js';
import type { ApprovalHook } from './approval-hooks.js';
import type { GrantBook } from './grant-book.js';
import { defined } from '../../domain/defined.js';

/** What follows a decision that won: a remembered grant, the families' hooks, the audit entry. */
export class DecisionEffects {
  constructor(
    private readonly grants: GrantBook,
    private readonly hooks: ReadonlyArray<ApprovalHook>,
    private readonly ids: Ids,
    private readonly audit: AuditTrail,
  ) {}

  async apply(decided: Approval, approved: boolean, at: string): Promise<void> {
    const remember = decided.remember;
    // Saved before the hooks run: a hook that finds the grant should not stand (its automation was
    // disarmed meanwhile) revokes it.
    const grant = approved ? grantFromApproval(decided, () => this.ids.mint('grant'), at) : null;
    if (grant) await this.grants.save(grant);
    for (const hook of this.hooks) await hook.onDecided(decided, approved);
    await this.audit.record({
      subject: decided.subject,
      action: 'approval.decided',
      outcome: approved ? 'approved' : 'denied',
      details: {
        approvalId: decided.id,
        tool: decided.request.tool,
        ...defined({ remember: remember && approved ? remember : undefined }),
      },
    });
  }
}

/** `POST /approvals/:id/decide`: the first decision wins; every later one is a conflict. */
export class DecideApproval implements UseCase<Decision, ApprovalView> {
  constructor(
    private readonly approvals: ApprovalBook,
    private readonly effects: DecisionEffects,
    private readonly clock: Clock,
  ) {}

  async execute(decision: Decision): Promise<ApprovalView> {
    const now = this.clock.now().toISOString();
    const loaded = await this.approvals.ownedBy(decision.principal.subject, decision.approvalId);
    const decided = decision.approve ? loaded.approval.approve(now, decision.remember ?? null) : loaded.approval.deny(now);
    await this.approvals.swapOrConflict(loaded, decided, now);
    await this.effects.apply(decided, decision.approve, now);
    return approvalView(decided, now);
  }
}
