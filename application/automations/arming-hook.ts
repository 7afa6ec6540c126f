import type { Approval } from '../../domain/guard/approval.js';
import type { Clock } from '../../ports/clock.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { ApprovalHook } from '../guard/approval-hooks.js';
import type { ArmingAsks } from './arming-asks.js';
import type { AutomationBook } from './automation-book.js';
import type { AutomationGrants } from './automation-grants.js';

/** What ArmingHook is built from. */
export interface ArmingHookDeps {
  readonly automations: AutomationBook;
  readonly asks: ArmingAsks;
  readonly grants: AutomationGrants;
  readonly clock: Clock;
  readonly audit: AuditTrail;
}

/**
 * Runs inside the decision on an automation's standing-grant ask. Approved: the decision already
 * gave the automation its standing grant (`grantFromApproval`); if the automation was disarmed or
 * deleted meanwhile, that grant is revoked here, so it never outlives the arming it was asked for.
 * Denied: the automation is disarmed before the decision returns, its other unanswered asks are
 * withdrawn and the grants its other answers gave are revoked.
 */
export class ArmingHook implements ApprovalHook {
  constructor(private readonly deps: ArmingHookDeps) {}

  async onDecided(approval: Approval, approved: boolean): Promise<void> {
    if (!approval.asksForStandingGrant) return;
    const { automationId, tool } = approval.request;
    if (!automationId) return;
    if (approved) {
      // The grant was written before this read: a disarm that this read missed comes after it and
      // revokes it itself.
      const current = await this.deps.automations.find(automationId);
      if (!current?.automation.armed)
        await this.deps.grants.revoke(approval.subject, automationId, current ? 'automation-disarmed' : 'automation-deleted');
      return;
    }
    const now = this.deps.clock.now().toISOString();
    const disarmed = await this.deps.automations.update(automationId, (automation) => automation.disarm(now));
    await this.deps.asks.drop(automationId);
    await this.deps.grants.revoke(approval.subject, automationId, 'automation-disarmed');
    if (disarmed) {
      await this.deps.audit.record({
        subject: approval.subject,
        action: 'automation.disarmed',
        outcome: 'standing-grant-denied',
        details: { automationId, tool, approvalId: approval.id },
      });
    }
  }
}
