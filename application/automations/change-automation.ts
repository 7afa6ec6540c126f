import type { Clock } from '../../ports/clock.js';
import type { CronCalendar } from '../../ports/scheduler.js';
import type { UseCase } from '../../ports/use-case.js';
import type { AutomationChange, AutomationView } from '../../ports/use-cases/automations.js';
import type { AutomationBook } from './automation-book.js';
import type { AutomationRules } from './automation-rules.js';
import { automationView } from './automation-view.js';
import { NotFound } from '../../domain/errors.js';

/** `PATCH /automations/:id`: rename any time; trigger and task only while disarmed (409 otherwise). */
export class ChangeAutomation implements UseCase<AutomationChange, AutomationView> {
  constructor(
    private readonly automations: AutomationBook,
    private readonly rules: AutomationRules,
    private readonly calendar: CronCalendar,
    private readonly clock: Clock,
  ) {}

  async execute(input: AutomationChange): Promise<AutomationView> {
    await this.automations.ownedBy(input.principal.subject, input.automationId);
    this.rules.check(input.trigger, input.task);
    const now = this.clock.now();
    const changes = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.trigger ? { trigger: input.trigger } : {}),
      ...(input.task ? { task: input.task } : {}),
    };
    const changed = await this.automations.update(input.automationId, (automation) => automation.change(changes, now.toISOString()));
    if (!changed) throw new NotFound('Automation');
    return automationView(changed, this.calendar, now);
  }
}
