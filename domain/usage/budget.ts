/**
 * Budgets: how much one subject may spend of something over a rolling window (`limits`), and the
 * breakers that stop runaway tool use (`breakers`). Both are counted the same way (UsageTally);
 * a breaker's key is a subject (tool calls a minute) or a run (writes per run).
 */

/** What the `limits` option meters, per subject. */
export const BUDGET_NAMES = ['turns', 'tokens', 'toolCalls', 'appGenerations', 'runs', 'uploadBytes', 'embeddingTokens'] as const;
export type BudgetName = (typeof BUDGET_NAMES)[number];

/** The breakers a host may change or turn off. */
export const BREAKER_NAMES = ['toolCallsPerMinute', 'writesPerRun'] as const;
export type BreakerName = (typeof BREAKER_NAMES)[number];

/** One budget: at most `max` units over the last `windowSeconds` (null: over the key's whole life, e.g. one run). */
export interface Budget {
  readonly name: BudgetName | BreakerName;
  readonly max: number;
  readonly windowSeconds: number | null;
}

/** A host's `limits`, as configured: each budget absent (not metered) or `{ max, windowSeconds }`. */
export type Limits = Partial<Record<BudgetName, { readonly max: number; readonly windowSeconds: number }>>;

/** A host's `breakers`: each a number, or false when turned off. */
export interface Breakers {
  readonly toolCallsPerMinute: number | false;
  readonly writesPerRun: number | false;
}

export const DEFAULT_BREAKERS: Breakers = { toolCallsPerMinute: 60, writesPerRun: 20 };

/** The budget behind a breaker, or null when the host turned it off. */
export function breakerBudget(breakers: Breakers, name: BreakerName): Budget | null {
  const max = breakers[name];
  if (max === false) return null;
  return name === 'toolCallsPerMinute' ? { name, max, windowSeconds: 60 } : { name, max, windowSeconds: null };
}

/** The budget `limits` sets for `name`, or null when it is not metered. */
export function limitBudget(limits: Limits, name: BudgetName): Budget | null {
  const set = limits[name];
  return set ? { name, max: set.max, windowSeconds: set.windowSeconds } : null;
}
