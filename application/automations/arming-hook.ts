import type { Approval } from '../../domain/guard/approval.js';
import { Grant } from '../../domain/guard/grant.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { ApprovalHook } from '../guard/approval-hooks.js';
import type { GrantBook } from '../guard/grant-book.js';
import type { ArmingAsks } from './arming-asks.js';
import type { AutomationBook } from './automation-book.js';

/**
 * Runs inside the decision on an automation's standing-grant ask. Approved: the owner gets a
 * standing grant for that tool. Denied: the automation is disarmed before the decision returns,
 * and its other unanswered asks are withdrawn.
 */
export class ArmingHook implements ApprovalHook {
  constructor(
    private readonly automations: AutomationBook,
    private readonly asks: ArmingAsks,
    private readonly grants: GrantBook,
    private readonly ids: Ids,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  async onDecided(approval: Approval, approved: boolean): Promise<void> {
    const { automationId, runId, tool } = approval.request;
    if (!automationId || runId) return;
    const now = this.clock.now().toISOString();
    if (approved) {
      // A person who also ticked "remember: standing, whole tool" already got this grant from the decision.
      const remember = approval.remember;
      if (remember?.duration === 'standing' && remember.scope === 'tool') return;
      await this.grants.save(
        Grant.create({
          id: this.ids.mint('grant'),
          subject: approval.subject,
          tool,
          scope: 'tool',
          inputDigest: null,
          duration: 'standing',
          session: null,
          evidence: null,
          origin: { kind: 'automation', automationId, approvalId: approval.id },
          createdAt: now,
        }),
      );
      return;
    }
    const disarmed = await this.automations.update(automationId, (automation) => automation.disarm(now));
    await this.asks.drop(automationId);
    if (disarmed) {
      await this.audit.record({ subject: approval.subject, action: 'automation.disarmed', outcome: 'standing-grant-denied', details: { automationId, tool, approvalId: approval.id } });
    }
  }
}
