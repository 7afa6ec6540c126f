import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../../ports/use-case.js';
import type { UsageReport } from '../../ports/use-cases/usage.js';
import type { UsageMeter } from './usage-meter.js';

/** `GET /usage`: what the caller used of each budget, and what is left; only ever the caller's own. */
export class GetUsage implements UseCase<{ principal: Principal }, UsageReport> {
  constructor(private readonly meter: UsageMeter) {}

  async execute({ principal }: { principal: Principal }): Promise<UsageReport> {
    return { budgets: await this.meter.figures(principal.subject) };
  }
}
