import type { Task, Trigger } from '../../domain/automations/automation.js';
import { InvalidInput } from '../../domain/errors.js';
import type { CronCalendar } from '../../ports/scheduler.js';
import type { ToolRegistry } from '../../ports/tool-registry.js';

/**
 * What an automation may name: a cron expression and timezone croner understands, a webhook
 * source registered at wiring time, and tools that exist. Checked on create and change, so a
 * mistake is a 400 now rather than a schedule that never fires.
 */
export class AutomationRules {
  constructor(
    private readonly calendar: CronCalendar,
    private readonly tools: ToolRegistry,
    private readonly sources: () => ReadonlyArray<string>,
  ) {}

  check(trigger: Trigger | undefined, task: Task | undefined): void {
    const issues: Array<{ path: string; message: string }> = [];
    if (trigger?.kind === 'schedule') {
      const problem = this.calendar.problem(trigger.cron, trigger.timezone);
      if (problem) issues.push({ path: 'trigger.cron', message: problem });
    }
    if (trigger?.kind === 'webhook' && !this.sources().includes(trigger.source)) {
      const known = this.sources();
      issues.push({
        path: 'trigger.source',
        message: `no webhook source "${trigger.source}" is registered${known.length ? ` (registered: ${known.join(', ')})` : ''}`,
      });
    }
    for (const [index, tool] of (task?.tools ?? []).entries()) {
      if (!this.tools.get(tool)) issues.push({ path: `task.tools.${index}`, message: `there is no tool named "${tool}"` });
    }
    if (issues.length)
      throw new InvalidInput(`The automation is not valid: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
  }
}
