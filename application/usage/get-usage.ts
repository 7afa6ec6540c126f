import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../../ports/use-case.js';
import type { UsageReport } from '../../ports/use-cases/usage.js';
import type { UsageMeter } from './usage-meter.js';
import { defined } from '../../domain/defined.js';

/**
 * `GET /usage`: what the caller used of each budget, and what is left; only ever the caller's own
 * (and, for an anonymous session, its address's, which limits it too).
 */
export class GetUsage implements UseCase<{ principal: Principal }, UsageReport> {
  constructor(private readonly meter: UsageMeter) {}

  async execute({ principal }: { principal: Principal }): Promise<UsageReport> {
    const addressBudgets = await this.meter.addressFigures(principal);
    return { budgets: await this.meter.figures(principal.subject), ...defined({ addressBudgets: addressBudgets || undefined }) };
  }
}
