import type { Principal } from '../../domain/principal.js';
import type { BudgetName } from '../../domain/usage/budget.js';
import type { UsageFigures } from '../../domain/usage/usage-tally.js';
import type { UseCase } from '../use-case.js';

/** `GET /usage`: each budget this deployment meters, as the caller stands now (none without `limits`). */
export interface UsageReport {
  readonly budgets: Partial<Record<BudgetName, UsageFigures>>;
  /** For an anonymous session whose address shares budgets: what every anonymous session of that address used together. */
  readonly addressBudgets?: Partial<Record<BudgetName, UsageFigures>>;
}

export interface UsageUseCases {
  readonly getUsage: UseCase<{ principal: Principal }, UsageReport>;
}
