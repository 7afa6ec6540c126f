import type { Automation } from '../../domain/automations/automation.js';
import type { Clock } from '../../ports/clock.js';
import type { CronCalendar } from '../../ports/scheduler.js';
import type { AutomationView } from '../../ports/use-cases/automations.js';
import type { AutomationBook } from './automation-book.js';
import { defined } from '../../domain/defined.js';

/**
 * The wire's view: the record with the owner's subject, its retry and concurrency (defaults filled
 * in), where completion webhooks go without the sealed secret, and when an armed schedule fires next.
 */
export function automationView(automation: Automation, calendar: CronCalendar, now: Date): AutomationView {
  const { owner, retry: _retry, concurrency: _concurrency, notify: _notify, ...rest } = automation.toPrimitives();
  const notify = automation.notify ? { url: automation.notify.url, setAt: automation.notify.setAt } : null;
  const trigger = automation.trigger;
  const nextRunAt =
    automation.armed && trigger.kind === 'schedule'
      ? (calendar.nextAfter(trigger.cron, trigger.timezone, now)?.toISOString() ?? null)
      : undefined;
  return {
    ...rest,
    owner: owner.subject,
    retry: automation.retry,
    concurrency: automation.concurrency,
    notify,
    ...defined({ nextRunAt }),
  };
}

/** The reads of a person's automations (one, or a page): each answers them as the wire views them. */
export abstract class AutomationReads {
  constructor(
    protected readonly automations: AutomationBook,
    private readonly calendar: CronCalendar,
    protected readonly clock: Clock,
  ) {}

  /** The automation's view as of `now`: a page is viewed at one instant. */
  protected view(automation: Automation, now: Date = this.clock.now()): AutomationView {
    return automationView(automation, this.calendar, now);
  }
}
