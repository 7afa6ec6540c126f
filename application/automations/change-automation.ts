import type { Clock } from '../../ports/clock.js';
import type { CronCalendar } from '../../ports/scheduler.js';
import type { UseCase } from '../../ports/use-case.js';
import type { AutomationChange, SavedAutomation } from '../../ports/use-cases/automations.js';
import type { AutomationBook } from './automation-book.js';
import type { AutomationRules } from './automation-rules.js';
import { automationView } from './automation-view.js';
import type { NotifyTargets } from './notify-targets.js';
import { NotFound } from '../../domain/errors.js';
import { defined } from '../../domain/defined.js';

/** What ChangeAutomation is built from. */
export interface ChangeAutomationDeps {
  readonly automations: AutomationBook;
  readonly rules: AutomationRules;
  readonly notifyTargets: NotifyTargets;
  readonly calendar: CronCalendar;
  readonly clock: Clock;
}

/**
 * `PATCH /automations/:id`: rename, retries, concurrency and the completion webhook any time;
 * trigger and task only while disarmed (409 otherwise). Setting `notify` mints a new secret, shown
 * in this answer only; `notify: null` sends no more completion webhooks.
 */
export class ChangeAutomation implements UseCase<AutomationChange, SavedAutomation> {
  constructor(private readonly deps: ChangeAutomationDeps) {}

  async execute(input: AutomationChange): Promise<SavedAutomation> {
    await this.deps.automations.inUseBy(input.principal.subject, input.automationId);
    this.deps.rules.check(input.trigger, input.task);
    const now = this.deps.clock.now();
    const notify = input.notify ? await this.deps.notifyTargets.set(input.automationId, input.notify.url, now.toISOString()) : null;
    const changes = defined({
      name: input.name,
      trigger: input.trigger,
      task: input.task,
      retry: input.retry,
      concurrency: input.concurrency,
      notify: input.notify !== undefined ? (notify?.target ?? null) : undefined,
    });
    const changed = await this.deps.automations.update(input.automationId, (automation) => automation.change(changes, now.toISOString()));
    if (!changed) throw new NotFound('Automation');
    return { ...automationView(changed, this.deps.calendar, now), ...defined({ notifySecret: notify ? notify.secret : undefined }) };
  }
}
