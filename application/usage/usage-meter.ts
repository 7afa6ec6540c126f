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
import { UsageTally, type Refusal, type Reservation, type UsageFigures } from '../../domain/usage/usage-tally.js';
import type { Clock } from '../../ports/clock.js';
import { LOST_RACE, retryOnConflict } from '../shared/retry-on-conflict.js';
import type { UsageBook } from './usage-book.js';
import { waitInWords } from '../../domain/usage/wait-in-words.js';

export interface UsageSettings {
  readonly limits: Limits;
  /**
   * What every anonymous session calling from one address shares, on top of its own `limits`
   * (null: nothing shared, each cookie has only its own).
   */
  readonly perAddress: Limits | null;
  readonly breakers: Breakers;
}

/**
 * Units of a windowed breaker this instance reserved for one key and hands out in memory: usable
 * until `until` (the end of the bucket they are counted in), `left` of them still unused.
 */
interface BreakerLease {
  readonly bucket: number;
  readonly until: number;
  left: number;
  /** How many were asked for, which the next reservation doubles or halves. */
  readonly size: number;
}

/** Past this many keys with leases, expired ones are dropped (their unused units free with the window). */
const MAX_LEASES = 4096;

/** One of the keys a payer's spending is counted under, and the budgets that hold for it. */
interface Account {
  readonly key: string;
  readonly limits: Limits;
}

/** What a use case spends through: a deployment's budgets and breakers, or nothing (`NoUsageMeter`). */
export interface UsageMeter {
  /** Spends `units` of the payer's budget (and its address's), or throws LimitReached (nothing spent). */
  charge(payer: Payer | string, name: BudgetName, units?: number): Promise<void>;
  /** Throws LimitReached when nothing is left of the payer's budget, or its address's (reads only). */
  ensureLeft(payer: Payer | string, name: BudgetName): Promise<void>;
  /** Counts `units` the payer already spent (a model step's tokens), fitting or not, against it and its address. */
  record(payer: Payer | string, name: BudgetName, units: number): Promise<void>;
  /** The keys a payer's spending is counted under: its subject, and maybe its address's. */
  keysOf(payer: Payer | string): string[];
  /** Counts one more against a breaker for `key`: null when it fits (or is off), else its budget and refusal. */
  breaker(name: BreakerName, key: string): Promise<{ budget: Budget; refusal: Refusal } | null>;
  /** Each budget this deployment meters, as the subject stands now. */
  figures(subject: string): Promise<Partial<Record<BudgetName, UsageFigures>>>;
  /** What the anonymous sessions of the payer's address spent together; null when nothing is shared. */
  addressFigures(payer: Payer | string): Promise<Partial<Record<BudgetName, UsageFigures>> | null>;
}

/** What TalliedUsageMeter is built from. */
export interface TalliedUsageMeterDeps {
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
 *
 * A windowed breaker (`toolCallsPerMinute`) is on every tool call's path, so it is counted in
 * leases rather than a store write per call: an instance reserves several units at once with one
 * compare-and-swap (one, then twice as many each time calls use them all up before their second
 * ends, up to a sixteenth of the breaker) and hands them out in memory until that second ends; what
 * it did not use is given back with its next reservation. The store still decides every unit, so
 * instances never let more than `max` through in a window; what one instance holds unused can
 * refuse another for at most the rest of that second.
 */
export class TalliedUsageMeter implements UsageMeter {
  private readonly leases = new Map<string, BreakerLease>();
  /** The reservation under way for a tally, which calls arriving meanwhile wait for instead of racing it. */
  private readonly reserving = new Map<string, Promise<Refusal | null>>();

  constructor(private readonly deps: TalliedUsageMeterDeps) {}

  /** Whether `name` is metered in this deployment. */
  meters(name: BudgetName): boolean {
    return limitBudget(this.deps.settings.limits, name) !== null;
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
      const loaded = await this.deps.book.find(UsageTally.idOf(budget.name, key));
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
          const loaded = await this.deps.book.find(UsageTally.idOf(budget.name, key));
          const next = (loaded?.tally ?? UsageTally.empty(budget.name, key)).record(budget, units, this.now());
          return (await this.deps.book.replace(loaded, next)) ? undefined : LOST_RACE;
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
    const budget = breakerBudget(this.deps.settings.breakers, name);
    if (!budget) return null;
    const refusal = budget.windowSeconds === null ? await this.spend(budget, key, 1) : await this.leased(budget, key);
    return refusal ? { budget, refusal } : null;
  }

  /** One unit of a windowed breaker from this instance's lease, reserving more when it has none left. */
  private async leased(budget: Budget, key: string): Promise<Refusal | null> {
    const id = UsageTally.idOf(budget.name, key);
    for (;;) {
      const lease = this.leases.get(id);
      if (lease && lease.left > 0 && this.deps.clock.now().getTime() < lease.until) {
        lease.left--;
        return null;
      }
      const pending = this.reserving.get(id);
      if (!pending) break;
      await pending;
    }
    const reservation = this.reserve(budget, id, key);
    this.reserving.set(id, reservation);
    try {
      return await reservation;
    } finally {
      this.reserving.delete(id);
    }
  }

  /**
   * One compare-and-swap that gives back what the last lease left unused and reserves the next
   * (the caller takes the first unit of it), or refuses when not one unit is left.
   */
  private async reserve(budget: Budget, id: string, key: string): Promise<Refusal | null> {
    const now = this.deps.clock.now();
    const previous = this.leases.get(id);
    const cap = Math.max(1, Math.floor(budget.max / 16));
    const want = !previous ? 1 : previous.left === 0 ? Math.min(previous.size * 2, cap) : Math.max(1, Math.floor(previous.size / 2));
    // Here only once it expired (or was used up): what it left can be given back.
    const unused = previous && previous.left > 0 ? previous : null;
    const at = now.toISOString();
    const outcome = await retryOnConflict<Reservation | Refusal>(
      async () => {
        const loaded = await this.deps.book.find(id);
        const current = loaded?.tally ?? UsageTally.empty(budget.name, key);
        const tally = unused ? current.giveBack(budget, unused.bucket, unused.left, at) : current;
        const reserved = tally.reserve(budget, want, at);
        if ('granted' in reserved) return (await this.deps.book.replace(loaded, reserved.tally)) ? reserved : LOST_RACE;
        // Refused even so: what this instance held back is still given back, for the others.
        if (unused && loaded && !(await this.deps.book.replace(loaded, tally))) return LOST_RACE;
        return reserved;
      },
      { attempts: 16, what: 'The usage tally' },
    );
    if (!('granted' in outcome)) {
      this.leases.delete(id);
      return outcome;
    }
    if (this.leases.size >= MAX_LEASES) this.dropExpired(now.getTime());
    this.leases.set(id, { bucket: outcome.bucket, until: outcome.until, left: outcome.granted - 1, size: want });
    return null;
  }

  private dropExpired(now: number): void {
    for (const [id, lease] of this.leases) if (lease.until <= now) this.leases.delete(id);
  }

  /** Each budget this deployment meters, as the subject stands now. */
  async figures(subject: string): Promise<Partial<Record<BudgetName, UsageFigures>>> {
    return this.figuresOf(subject, this.deps.settings.limits);
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
      const loaded = await this.deps.book.find(UsageTally.idOf(name, key));
      figures[name] = (loaded?.tally ?? UsageTally.empty(name, key)).figures(budget, now);
    }
    return figures;
  }

  /** A payer's accounts: its subject's (a bare string is a subject alone), then its address's. */
  private accountsOf(payer: Payer | string): Account[] {
    const { subject, anonymous, address } = typeof payer === 'string' ? { subject: payer } : payer;
    const own: Account = { key: subject, limits: this.deps.settings.limits };
    const shared = anonymous === true ? this.deps.settings.perAddress : null;
    return shared ? [own, { key: addressKey(address), limits: shared }] : [own];
  }

  /** Gives back units charged a moment ago; if that keeps losing races, they free with the window. */
  private async refund(budget: Budget, key: string, units: number): Promise<void> {
    await retryOnConflict(
      async () => {
        const loaded = await this.deps.book.find(UsageTally.idOf(budget.name, key));
        if (!loaded) return undefined;
        return (await this.deps.book.replace(loaded, loaded.tally.refund(budget, units, this.now()))) ? undefined : LOST_RACE;
      },
      { attempts: 16, exhausted: () => undefined },
    );
  }

  /** The charge itself: one compare-and-swap that fits or refuses, again while another writer moved first. */
  private spend(budget: Budget, key: string, units: number): Promise<Refusal | null> {
    return retryOnConflict<Refusal | null>(
      async () => {
        const loaded = await this.deps.book.find(UsageTally.idOf(budget.name, key));
        const charged = (loaded?.tally ?? UsageTally.empty(budget.name, key)).charge(budget, units, this.now());
        if (!(charged instanceof UsageTally)) return charged;
        return (await this.deps.book.replace(loaded, charged)) ? null : LOST_RACE;
      },
      // A subject's parallel calls all write this one record: a few more rounds than a person's record gets.
      { attempts: 16, what: 'The usage tally' },
    );
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

function subjectOf(payer: Payer | string): string {
  return typeof payer === 'string' ? payer : payer.subject;
}

function limitReached(budget: Budget, refusal: Refusal, shared = false): LimitReached {
  const over = budget.windowSeconds === null ? '' : ` per ${describeWindow(budget.windowSeconds)}`;
  const retry = refusal.retryAfterSeconds === null ? '' : `; try again ${waitInWords(refusal.retryAfterSeconds)}`;
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
