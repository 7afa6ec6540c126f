import type { UseCase } from '../../ports/use-case.js';
import type { AutomationRef, AutomationView } from '../../ports/use-cases/automations.js';
import { AutomationReads } from './automation-view.js';

/** `GET /automations/:id`. */
export class GetAutomation extends AutomationReads implements UseCase<AutomationRef, AutomationView> {
  async execute(input: AutomationRef): Promise<AutomationView> {
    const { automation } = await this.automations.ownedBy(input.principal.subject, input.automationId);
    return this.view(automation);
  }
}
