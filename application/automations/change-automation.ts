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
  private readonly automations: AutomationBook;
  private readonly rules: AutomationRules;
  private readonly notifyTargets: NotifyTargets;
  private readonly calendar: CronCalendar;
  private readonly clock: Clock;

  constructor(deps: ChangeAutomationDeps) {
    this.automations = deps.automations;
    this.rules = deps.rules;
    this.notifyTargets = deps.notifyTargets;
    this.calendar = deps.calendar;
    this.clock = deps.clock;
  }

  async execute(input: AutomationChange): Promise<SavedAutomation> {
    await this.automations.inUseBy(input.principal.subject, input.automationId);
    this.rules.check(input.trigger, input.task);
    const now = this.clock.now();
    const notify = input.notify ? await this.notifyTargets.set(input.automationId, input.notify.url, now.toISOString()) : null;
    const changes = defined({
      name: input.name,
      trigger: input.trigger,
      task: input.task,
      retry: input.retry,
      concurrency: input.concurrency,
      notify: input.notify !== undefined ? (notify?.target ?? null) : undefined,
    });
    const changed = await this.automations.update(input.automationId, (automation) => automation.change(changes, now.toISOString()));
    if (!changed) throw new NotFound('Automation');
    return { ...automationView(changed, this.calendar, now), ...defined({ notifySecret: notify ? notify.secret : undefined }) };
  }
}
