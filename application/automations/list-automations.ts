import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../../ports/use-case.js';
import type { AutomationView } from '../../ports/use-cases/automations.js';
import { AutomationReads } from './automation-view.js';
import type { AutomationBook } from './automation-book.js';
import type { CronCalendar } from '../../ports/scheduler.js';
import type { Clock } from '../../ports/clock.js';
import type { HeldDeletions } from '../deletions/deletable.js';

/** `GET /automations`: the caller's automations, newest first; one waiting out its undo window is left out. */
export class ListAutomations
  extends AutomationReads
  implements
    UseCase<{ principal: Principal; limit?: number; cursor?: string | null }, { automations: AutomationView[]; nextCursor: string | null }>
{
  constructor(
    automations: AutomationBook,
    calendar: CronCalendar,
    clock: Clock,
    private readonly held?: HeldDeletions,
  ) {
    super(automations, calendar, clock);
  }

  async execute(input: { principal: Principal; limit?: number; cursor?: string | null }) {
    const now = this.clock.now();
    const page = await this.automations.list({ owner: input.principal.subject }, input.limit ?? 50, input.cursor ?? null);
    const held = (await this.held?.heldIds(input.principal.subject, 'automation')) ?? new Set<string>();
    return {
      automations: page.items.filter(({ automation }) => !held.has(automation.id)).map(({ automation }) => this.view(automation, now)),
      nextCursor: page.nextCursor,
    };
  }
}
