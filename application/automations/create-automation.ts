import { Automation } from '../../domain/automations/automation.js';
import { Forbidden } from '../../domain/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { CronCalendar } from '../../ports/scheduler.js';
import type { UseCase } from '../../ports/use-case.js';
import type { NewAutomation, SavedAutomation } from '../../ports/use-cases/automations.js';
import type { AutomationBook } from './automation-book.js';
import type { AutomationRules } from './automation-rules.js';
import { automationView } from './automation-view.js';
import type { NotifyTargets } from './notify-targets.js';
import { defined } from '../../domain/defined.js';

/** An automation acts for someone who is away, so it needs someone: an anonymous session cannot own one. */
export class SignInToAutomate extends Forbidden {
  constructor() {
    super('Sign in to create automations: they act for you while you are away');
  }
}

/** What CreateAutomation is built from. */
export interface CreateAutomationDeps {
  readonly automations: AutomationBook;
  readonly rules: AutomationRules;
  readonly notifyTargets: NotifyTargets;
  readonly calendar: CronCalendar;
  readonly ids: Ids;
  readonly clock: Clock;
}

/**
 * `POST /automations`: created disarmed; arming is a separate, deliberate step. With `notify`, the
 * endpoint's fresh secret is in this answer and never again.
 */
export class CreateAutomation implements UseCase<NewAutomation, SavedAutomation> {
  constructor(private readonly deps: CreateAutomationDeps) {}

  async execute(input: NewAutomation): Promise<SavedAutomation> {
    if (input.principal.anonymous) throw new SignInToAutomate();
    this.deps.rules.check(input.trigger, input.task);
    const now = this.deps.clock.now();
    const id = this.deps.ids.mint('automation');
    const notify = input.notify ? await this.deps.notifyTargets.set(id, input.notify.url, now.toISOString()) : null;
    const automation = Automation.create({
      id,
      name: input.name,
      trigger: input.trigger,
      task: input.task,
      owner: input.principal,
      now: now.toISOString(),
      ...defined({ retry: input.retry, concurrency: input.concurrency }),
      notify: notify?.target ?? null,
    });
    await this.deps.automations.save(automation);
    return { ...automationView(automation, this.deps.calendar, now), ...defined({ notifySecret: notify ? notify.secret : undefined }) };
  }
}
