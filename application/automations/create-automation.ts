import { Automation } from '../../domain/automations/automation.js';
import { Forbidden } from '../../domain/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { CronCalendar } from '../../ports/scheduler.js';
import type { UseCase } from '../../ports/use-case.js';
import type { AutomationView, NewAutomation } from '../../ports/use-cases/automations.js';
import type { AutomationBook } from './automation-book.js';
import type { AutomationRules } from './automation-rules.js';
import { automationView } from './automation-view.js';

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
  readonly calendar: CronCalendar;
  readonly ids: Ids;
  readonly clock: Clock;
}

/** `POST /automations`: created disarmed; arming is a separate, deliberate step. */
export class CreateAutomation implements UseCase<NewAutomation, AutomationView> {
  private readonly automations: AutomationBook;
  private readonly rules: AutomationRules;
  private readonly calendar: CronCalendar;
  private readonly ids: Ids;
  private readonly clock: Clock;

  constructor(deps: CreateAutomationDeps) {
    this.automations = deps.automations;
    this.rules = deps.rules;
    this.calendar = deps.calendar;
    this.ids = deps.ids;
    this.clock = deps.clock;
  }

  async execute(input: NewAutomation): Promise<AutomationView> {
    if (input.principal.anonymous) throw new SignInToAutomate();
    this.rules.check(input.trigger, input.task);
    const now = this.clock.now();
    const automation = Automation.create({
      id: this.ids.mint('automation'),
      name: input.name,
      trigger: input.trigger,
      task: input.task,
      owner: input.principal,
      now: now.toISOString(),
    });
    await this.automations.save(automation);
    return automationView(automation, this.calendar, now);
  }
}
