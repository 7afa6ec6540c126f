import type { Clock } from '../../ports/clock.js';
import type { CronCalendar } from '../../ports/scheduler.js';
import type { UseCase } from '../../ports/use-case.js';
import type { AutomationRef, AutomationView } from '../../ports/use-cases/automations.js';
import type { AutomationBook } from './automation-book.js';
import { automationView } from './automation-view.js';

/** `GET /automations/:id`. */
export class GetAutomation implements UseCase<AutomationRef, AutomationView> {
  constructor(
    private readonly automations: AutomationBook,
    private readonly calendar: CronCalendar,
    private readonly clock: Clock,
  ) {}

  async execute(input: AutomationRef): Promise<AutomationView> {
    const { automation } = await this.automations.ownedBy(input.principal.subject, input.automationId);
    return automationView(automation, this.calendar, this.clock.now());
  }
}
