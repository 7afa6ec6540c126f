import { NotFound } from '../../domain/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { CronCalendar } from '../../ports/scheduler.js';
import type { UseCase } from '../../ports/use-case.js';
import type { AutomationRef, AutomationView } from '../../ports/use-cases/automations.js';
import type { ArmingAsks } from './arming-asks.js';
import type { AutomationBook } from './automation-book.js';
import type { AutomationGrants } from './automation-grants.js';
import { automationView } from './automation-view.js';

/** What DisarmAutomation is built from. */
export interface DisarmAutomationDeps {
  readonly automations: AutomationBook;
  readonly asks: ArmingAsks;
  readonly grants: AutomationGrants;
  readonly calendar: CronCalendar;
  readonly clock: Clock;
}

/**
 * `POST /automations/:id/disarm`: stops firing; unanswered standing-grant asks are withdrawn and
 * the standing grants its asks gave are revoked (arming it again asks again).
 */
export class DisarmAutomation implements UseCase<AutomationRef, AutomationView> {
  constructor(private readonly deps: DisarmAutomationDeps) {}

  async execute(input: AutomationRef): Promise<AutomationView> {
    await this.deps.automations.ownedBy(input.principal.subject, input.automationId);
    const now = this.deps.clock.now();
    const disarmed = await this.deps.automations.update(input.automationId, (automation) => automation.disarm(now.toISOString()));
    if (!disarmed) throw new NotFound('Automation');
    await this.deps.asks.drop(input.automationId);
    await this.deps.grants.revoke(disarmed.owner.subject, input.automationId, 'automation-disarmed');
    return automationView(disarmed, this.deps.calendar, now);
  }
}
