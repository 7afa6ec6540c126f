import type { Clock } from '../../ports/clock.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { GrantBook } from '../guard/grant-book.js';

export type GrantEnding = 'automation-disarmed' | 'automation-deleted';

/**
 * The grants that apply to one automation's runs die with it: deleting or disarming the automation
 * revokes them (arming it again asks again). Grants that apply anywhere are the owner's own and
 * stay.
 */
export class AutomationGrants {
  constructor(
    private readonly grants: GrantBook,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  /** Revokes the owner's active grants for this automation; answers how many. */
  async revoke(owner: string, automationId: string, because: GrantEnding): Promise<number> {
    const at = this.clock.now().toISOString();
    let revoked = 0;
    for (const grant of await this.grants.everyActiveOf(owner)) {
      if (!grant.isFor(automationId)) continue;
      await this.grants.save(grant.revoke(at));
      await this.audit.record({
        subject: owner,
        action: 'grant.revoked',
        outcome: because,
        details: { grantId: grant.id, tool: grant.tool, automationId },
      });
      revoked += 1;
    }
    return revoked;
  }
}
