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
import { addressKey, type Payer } from '../../domain/usage/payer.js';
import { UsageTally, type Refusal, type UsageFigures } from '../../domain/usage/usage-tally.js';
import type { Clock } from '../../ports/clock.js';
import { LOST_RACE, retryOnConflict } from '../shared/retry-on-conflict.js';
import type { UsageBook } from './usage-book.js';

export interface UsageSettings {
  readonly limits: Limits;
  /**
   * What every anonymous session calling from one address shares, on top of its own `limits`
   * (null: nothing shared, each cookie has only its own).
   */
  readonly perAddress: Limits | null;
  readonly breakers: Breakers;
}

/** One of the keys a payer's spending is counted under, and the budgets that hold for it. */
interface Account {
  readonly key: string;
  readonly limits: Limits;
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
 *
 * A payer is counted under its subject and, when it is an anonymous session, under its address
 * too (`perAddress`): a new cookie gets a budget of its own but not a fresh share of the
 * address's. A charge fits only if it fits both; the one that fit is given back when the other
 * refuses, so a refused piece of work spends nothing.
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

  /** Spends `units` of the payer's budget (and its address's), or throws LimitReached (nothing spent). */
  async charge(payer: Payer | string, name: BudgetName, units = 1): Promise<void> {
    const spent: Array<{ budget: Budget; key: string }> = [];
    for (const { key, limits } of this.accountsOf(payer)) {
      const budget = limitBudget(limits, name);
      if (!budget) continue;
      const refusal = await this.spend(budget, key, units);
      if (refusal) {
        for (const done of spent) await this.refund(done.budget, done.key, units);
        throw limitReached(budget, refusal, key !== subjectOf(payer));
      }
      spent.push({ budget, key });
    }
  }

  /** Throws LimitReached when nothing is left of the payer's budget, or its address's (reads only). */
  async ensureLeft(payer: Payer | string, name: BudgetName): Promise<void> {
    for (const { key, limits } of this.accountsOf(payer)) {
      const budget = limitBudget(limits, name);
      if (!budget) continue;
      const loaded = await this.book.find(UsageTally.idOf(budget.name, key));
      const refusal = loaded?.tally.refusalAt(budget, this.now()) ?? null;
      if (refusal) throw limitReached(budget, refusal, key !== subjectOf(payer));
    }
  }

  /** Counts `units` the payer already spent (a model step's tokens), fitting or not, against it and its address. */
  async record(payer: Payer | string, name: BudgetName, units: number): Promise<void> {
    if (!(units > 0)) return;
    for (const { key, limits } of this.accountsOf(payer)) {
      const budget = limitBudget(limits, name);
      if (!budget) continue;
      await retryOnConflict(
        async () => {
          const loaded = await this.book.find(UsageTally.idOf(budget.name, key));
          const next = (loaded?.tally ?? UsageTally.empty(budget.name, key)).record(budget, units, this.now());
          return (await this.book.replace(loaded, next)) ? undefined : LOST_RACE;
        },
        { attempts: 16, what: 'The usage tally' },
      );
    }
  }

  /**
   * The keys a payer's spending is counted under: its subject, and for an anonymous session its
   * address's key while the deployment shares budgets per address.
   */
  keysOf(payer: Payer | string): string[] {
    return this.accountsOf(payer).map((account) => account.key);
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
    return this.figuresOf(subject, this.settings.limits);
  }

  /** What the anonymous sessions of the payer's address spent together; null for a signed-in payer, or when nothing is shared. */
  async addressFigures(payer: Payer | string): Promise<Partial<Record<BudgetName, UsageFigures>> | null> {
    const shared = this.accountsOf(payer).find((account) => account.key !== subjectOf(payer));
    return shared ? this.figuresOf(shared.key, shared.limits) : null;
  }

  private async figuresOf(key: string, limits: Limits): Promise<Partial<Record<BudgetName, UsageFigures>>> {
    const now = this.now();
    const figures: Partial<Record<BudgetName, UsageFigures>> = {};
    for (const name of BUDGET_NAMES) {
      const budget = limitBudget(limits, name);
      if (!budget) continue;
      const loaded = await this.book.find(UsageTally.idOf(name, key));
      figures[name] = (loaded?.tally ?? UsageTally.empty(name, key)).figures(budget, now);
    }
    return figures;
  }

  /** A payer's accounts: its subject's (a bare string is a subject alone), then its address's. */
  private accountsOf(payer: Payer | string): Account[] {
    const { subject, anonymous, address } = typeof payer === 'string' ? { subject: payer } : payer;
    const own: Account = { key: subject, limits: this.settings.limits };
    const shared = anonymous === true ? this.settings.perAddress : null;
    return shared ? [own, { key: addressKey(address), limits: shared }] : [own];
  }

  /** Gives back units charged a moment ago; if that keeps losing races, they free with the window. */
  private async refund(budget: Budget, key: string, units: number): Promise<void> {
    await retryOnConflict(
      async () => {
        const loaded = await this.book.find(UsageTally.idOf(budget.name, key));
        if (!loaded) return undefined;
        return (await this.book.replace(loaded, loaded.tally.refund(budget, units, this.now()))) ? undefined : LOST_RACE;
      },
      { attempts: 16, exhausted: () => undefined },
    );
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

function subjectOf(payer: Payer | string): string {
  return typeof payer === 'string' ? payer : payer.subject;
}

function limitReached(budget: Budget, refusal: Refusal, shared = false): LimitReached {
  const over = budget.windowSeconds === null ? '' : ` per ${describeWindow(budget.windowSeconds)}`;
  const retry = refusal.retryAfterSeconds === null ? '' : `; try again in ${refusal.retryAfterSeconds} s`;
  const whose = shared ? ' that anonymous sessions from this address share' : '';
  return new LimitReached(
    budget.name,
    refusal.retryAfterSeconds,
    `The ${budget.name} budget${whose} is spent (${budget.max}${over})${retry}`,
    shared ? 'address' : undefined,
  );
}

function describeWindow(seconds: number): string {
  if (seconds % 86_400 === 0) return seconds === 86_400 ? 'day' : `${seconds / 86_400} days`;
  if (seconds % 3600 === 0) return seconds === 3600 ? 'hour' : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? 'minute' : `${seconds / 60} minutes`;
  return `${seconds} s`;
}
