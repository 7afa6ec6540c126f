import { LimitReached } from '../../domain/errors.js';
import {
  BUDGET_NAMES,
  breakerBudget,
  limitBudget,
  type BreakerName,
  type Breakers,
  type Budget,
  type BudgetName,
  type Limits,
} from '../../domain/usage/budget.js';
import { UsageTally, type Refusal, type UsageFigures } from '../../domain/usage/usage-tally.js';
import type { Clock } from '../../ports/clock.js';
import { LOST_RACE, retryOnConflict } from '../shared/retry-on-conflict.js';
import type { UsageBook } from './usage-book.js';

export interface UsageSettings {
  readonly limits: Limits;
  readonly breakers: Breakers;
}

/** What UsageMeter is built from. */
export interface UsageMeterDeps {
  readonly book: UsageBook;
  readonly clock: Clock;
  readonly settings: UsageSettings;
}

/**
 * Meters a subject's budgets (`limits`) and the breakers, on the store. A unit budget (turns,
 * tool calls, app generations, runs) is reserved before the work starts: the charge is a
 * compare-and-swap that fits or refuses, so instances racing for a subject's last unit have one
 * winner. Tokens are counted after each model step instead (see `ensureLeft` and `record`): a
 * step's tokens are known only once it ended, so a step starts while any token is left and what
 * it spent is added then. A subject may so exceed its token budget by at most the steps it has in
 * flight, which is the rule for every budget ("no more than its in-flight work"), without a
 * guessed reservation refusing steps that would have fit. A budget the host did not set is
 * never read nor written: without `limits` a turn costs no extra store round trip.
 */
export class UsageMeter {
  private readonly book: UsageBook;
  private readonly clock: Clock;
  private readonly settings: UsageSettings;

  constructor(deps: UsageMeterDeps) {
    this.book = deps.book;
    this.clock = deps.clock;
    this.settings = deps.settings;
  }

  /** Whether `name` is metered in this deployment. */
  meters(name: BudgetName): boolean {
    return limitBudget(this.settings.limits, name) !== null;
  }

  /** Spends `units` of the subject's budget, or throws LimitReached (nothing spent). */
  async charge(subject: string, name: BudgetName, units = 1): Promise<void> {
    const budget = limitBudget(this.settings.limits, name);
    if (!budget) return;
    const refusal = await this.spend(budget, subject, units);
    if (refusal) throw limitReached(budget, refusal);
  }

  /** Throws LimitReached when nothing is left of the subject's budget (reads only). */
  async ensureLeft(subject: string, name: BudgetName): Promise<void> {
    const budget = limitBudget(this.settings.limits, name);
    if (!budget) return;
    const loaded = await this.book.find(UsageTally.idOf(budget.name, subject));
    const refusal = loaded?.tally.refusalAt(budget, this.now()) ?? null;
    if (refusal) throw limitReached(budget, refusal);
  }

  /** Counts `units` the subject already spent (a model step's tokens), fitting or not. */
  async record(subject: string, name: BudgetName, units: number): Promise<void> {
    const budget = limitBudget(this.settings.limits, name);
    if (!budget || !(units > 0)) return;
    await retryOnConflict(
      async () => {
        const id = UsageTally.idOf(budget.name, subject);
        const loaded = await this.book.find(id);
        const next = (loaded?.tally ?? UsageTally.empty(budget.name, subject)).record(budget, units, this.now());
        return (await this.book.replace(loaded, next)) ? undefined : LOST_RACE;
      },
      { attempts: 16, what: 'The usage tally' },
    );
  }

  /**
   * Counts one more against a breaker for `key` (a subject, a run): null when it fits, the
   * breaker's budget and refusal when it tripped (nothing counted). Null too when it is off.
   */
  async breaker(name: BreakerName, key: string): Promise<{ budget: Budget; refusal: Refusal } | null> {
    const budget = breakerBudget(this.settings.breakers, name);
    if (!budget) return null;
    const refusal = await this.spend(budget, key, 1);
    return refusal ? { budget, refusal } : null;
  }

  /** Each budget this deployment meters, as the subject stands now. */
  async figures(subject: string): Promise<Partial<Record<BudgetName, UsageFigures>>> {
    const now = this.now();
    const figures: Partial<Record<BudgetName, UsageFigures>> = {};
    for (const name of BUDGET_NAMES) {
      const budget = limitBudget(this.settings.limits, name);
      if (!budget) continue;
      const loaded = await this.book.find(UsageTally.idOf(name, subject));
      figures[name] = (loaded?.tally ?? UsageTally.empty(name, subject)).figures(budget, now);
    }
    return figures;
  }

  /** The charge itself: one compare-and-swap that fits or refuses, again while another writer moved first. */
  private spend(budget: Budget, key: string, units: number): Promise<Refusal | null> {
    return retryOnConflict<Refusal | null>(
      async () => {
        const loaded = await this.book.find(UsageTally.idOf(budget.name, key));
        const charged = (loaded?.tally ?? UsageTally.empty(budget.name, key)).charge(budget, units, this.now());
        if (!(charged instanceof UsageTally)) return charged;
        return (await this.book.replace(loaded, charged)) ? null : LOST_RACE;
      },
      // A subject's parallel calls all write this one record: a few more rounds than a person's record gets.
      { attempts: 16, what: 'The usage tally' },
    );
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}

function limitReached(budget: Budget, refusal: Refusal): LimitReached {
  const over = budget.windowSeconds === null ? '' : ` per ${describeWindow(budget.windowSeconds)}`;
  const retry = refusal.retryAfterSeconds === null ? '' : `; try again in ${refusal.retryAfterSeconds} s`;
  return new LimitReached(budget.name, refusal.retryAfterSeconds, `The ${budget.name} budget is spent (${budget.max}${over})${retry}`);
}

function describeWindow(seconds: number): string {
  if (seconds % 86_400 === 0) return seconds === 86_400 ? 'day' : `${seconds / 86_400} days`;
  if (seconds % 3600 === 0) return seconds === 3600 ? 'hour' : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? 'minute' : `${seconds / 60} minutes`;
  return `${seconds} s`;
}
