import type { Automation } from '../../domain/automations/automation.js';
import type { CronCalendar } from '../../ports/scheduler.js';
import type { AutomationView } from '../../ports/use-cases/automations.js';

/** The wire's view: the record with the owner's subject, and when an armed schedule fires next. */
export function automationView(automation: Automation, calendar: CronCalendar, now: Date): AutomationView {
  const { owner, ...rest } = automation.toPrimitives();
  const trigger = automation.trigger;
  const nextRunAt =
    automation.armed && trigger.kind === 'schedule'
      ? (calendar.nextAfter(trigger.cron, trigger.timezone, now)?.toISOString() ?? null)
      : undefined;
  return { ...rest, owner: owner.subject, ...(nextRunAt !== undefined ? { nextRunAt } : {}) };
}
