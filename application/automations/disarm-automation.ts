import { NotFound } from '../../domain/errors.js';
import type { UseCase } from '../../ports/use-case.js';
import type { AutomationRef, AutomationView } from '../../ports/use-cases/automations.js';
import type { ArmingDeps } from './arm-automation.js';
import { automationView } from './automation-view.js';

/**
 * `POST /automations/:id/disarm`: stops firing; unanswered standing-grant asks are withdrawn and
 * the standing grants its asks gave are revoked (arming it again asks again).
 */
export class DisarmAutomation implements UseCase<AutomationRef, AutomationView> {
  constructor(private readonly deps: ArmingDeps) {}

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
