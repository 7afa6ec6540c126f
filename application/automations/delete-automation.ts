import type { UseCase } from '../../ports/use-case.js';
import type { AutomationRef } from '../../ports/use-cases/automations.js';
import type { ArmingAsks } from './arming-asks.js';
import type { AutomationBook } from './automation-book.js';
import type { AutomationGrants } from './automation-grants.js';

/**
 * `DELETE /automations/:id`: it stops firing at once, its unanswered asks are withdrawn and its
 * standing grants revoked; its runs stay readable as history.
 */
export class DeleteAutomation implements UseCase<AutomationRef, void> {
  constructor(
    private readonly automations: AutomationBook,
    private readonly asks: ArmingAsks,
    private readonly grants: AutomationGrants,
  ) {}

  async execute(input: AutomationRef): Promise<void> {
    const { automation } = await this.automations.ownedBy(input.principal.subject, input.automationId);
    await this.automations.remove(input.automationId);
    await this.asks.drop(input.automationId);
    await this.grants.revoke(automation.owner.subject, input.automationId, 'automation-deleted');
  }
}
