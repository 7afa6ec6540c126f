import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../../ports/use-case.js';
import type { AutomationView } from '../../ports/use-cases/automations.js';
import { AutomationReads } from './automation-view.js';

/** `GET /automations`: the caller's automations, newest first. */
export class ListAutomations
  extends AutomationReads
  implements
    UseCase<{ principal: Principal; limit?: number; cursor?: string | null }, { automations: AutomationView[]; nextCursor: string | null }>
{
  async execute(input: { principal: Principal; limit?: number; cursor?: string | null }) {
    const now = this.clock.now();
    const page = await this.automations.list({ owner: input.principal.subject }, input.limit ?? 50, input.cursor ?? null);
    return { automations: page.items.map(({ automation }) => this.view(automation, now)), nextCursor: page.nextCursor };
  }
}
