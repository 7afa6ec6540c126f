import type { Principal } from '../../domain/principal.js';
import type { Clock } from '../../ports/clock.js';
import type { CronCalendar } from '../../ports/scheduler.js';
import type { UseCase } from '../../ports/use-case.js';
import type { AutomationView } from '../../ports/use-cases/automations.js';
import type { AutomationBook } from './automation-book.js';
import { automationView } from './automation-view.js';

/** `GET /automations`: the caller's automations, newest first. */
export class ListAutomations implements UseCase<
  { principal: Principal; limit?: number; cursor?: string | null },
  { automations: AutomationView[]; nextCursor: string | null }
> {
  constructor(
    private readonly automations: AutomationBook,
    private readonly calendar: CronCalendar,
    private readonly clock: Clock,
  ) {}

  async execute(input: { principal: Principal; limit?: number; cursor?: string | null }) {
    const now = this.clock.now();
    const page = await this.automations.list({ owner: input.principal.subject }, input.limit ?? 50, input.cursor ?? null);
    return { automations: page.items.map(({ automation }) => automationView(automation, this.calendar, now)), nextCursor: page.nextCursor };
  }
}
