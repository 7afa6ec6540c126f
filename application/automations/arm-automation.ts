import { NotFound } from '../../domain/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { CronCalendar } from '../../ports/scheduler.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ArmResult, AutomationRef } from '../../ports/use-cases/automations.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { ArmingAsks } from './arming-asks.js';
import type { AutomationBook } from './automation-book.js';
import type { AutomationGrants } from './automation-grants.js';
import { automationView } from './automation-view.js';

/**
 * What arming and disarming are built from alike: the book, the asks arming raises and the grants
 * they give, and the calendar and clock the automation is answered with.
 */
export interface ArmingDeps {
  readonly automations: AutomationBook;
  readonly asks: ArmingAsks;
  readonly grants: AutomationGrants;
  readonly calendar: CronCalendar;
  readonly clock: Clock;
}

/** What ArmAutomation is built from: arming is audited. */
export interface ArmAutomationDeps extends ArmingDeps {
  readonly audit: AuditTrail;
}

/**
 * `POST /automations/:id/arm`: armed from now (a schedule fires only for instants after this), and
 * the standing grants its tools need are asked for as approvals. Arming a disarmed automation
 * always asks afresh: a grant for it left from an earlier arming (one stored before disarming
 * revoked them) is revoked first. Arming again while armed is harmless: it answers the asks still
 * waiting.
 */
export class ArmAutomation implements UseCase<AutomationRef, ArmResult> {
  constructor(private readonly deps: ArmAutomationDeps) {}

  async execute(input: AutomationRef): Promise<ArmResult> {
    const before = await this.deps.automations.inUseBy(input.principal.subject, input.automationId);
    const now = this.deps.clock.now();
    if (!before.automation.armed) await this.deps.grants.revoke(before.automation.owner.subject, input.automationId, 'automation-disarmed');
    const armed = await this.deps.automations.update(input.automationId, (automation) => automation.arm(now.toISOString()));
    if (!armed) throw new NotFound('Automation');
    const asks = await this.deps.asks.raise(armed);
    await this.deps.audit.record({
      subject: input.principal.subject,
      action: 'automation.armed',
      outcome: 'armed',
      details: { automationId: armed.id, asks: asks.map((a) => a.tool) },
    });
    return { automation: automationView(armed, this.deps.calendar, now), asks };
  }
}
