import { Aggregate } from '../aggregate.js';
import type { Budget } from './budget.js';

/**
 * What one key (a subject, or a run for `writesPerRun`) spent against one budget, kept as a
 * rolling window of buckets: each bucket is a slice of the window (a sixtieth, at least a
 * second) holding the units spent in it, so the record stays small however much is spent. A
 * unit counts until its bucket's end plus the window has passed: never freed earlier than a true
 * rolling window would free it (at most one bucket later), so a subject never gets more than
 * `max` in any window. Every change is a compare-and-swap on this one record (UsageBook), so the
 * store decides across instances.
 */
export interface UsageTallyPrimitives {
  readonly id: string;
  /** The budget or breaker counted, e.g. `turns`, `writesPerRun`. */
  readonly budget: string;
  /** Whose: a subject, or a run id. */
  readonly key: string;
  /** [bucket start in epoch ms, units], oldest first. */
  readonly buckets: ReadonlyArray<readonly [number, number]>;
}

/** A charge that did not fit: how long until enough frees (null: never, e.g. more than `max` at once or a run's writes). */
export interface Refusal {
  readonly used: number;
  readonly retryAfterSeconds: number | null;
}

/**
 * Units reserved at once for a breaker's calls one instance is about to take (see UsageMeter): they
 * are counted in `bucket`, so they may be used until `until` (the bucket's end, epoch ms) and no
 * later, which keeps every window's count true however late in the bucket they are used.
 */
export interface Reservation {
  readonly tally: UsageTally;
  readonly granted: number;
  /** The start of the bucket they are counted in (epoch ms). */
  readonly bucket: number;
  readonly until: number;
}

/** What GET /usage shows of one budget. */
export interface UsageFigures {
  readonly used: number;
  readonly max: number;
  readonly windowSeconds: number | null;
  readonly remaining: number;
  /** When the oldest unit still counted frees (null when nothing is counted, or never). */
  readonly resetsAt: string | null;
  /** Seconds until one unit frees, when none is left; null otherwise. */
  readonly retryAfter: number | null;
}

export class UsageTally extends Aggregate<UsageTallyPrimitives> {
  private constructor(props: UsageTallyPrimitives) {
    super(props);
  }

  static idOf(budget: string, key: string): string {
    return `${budget}:${key}`;
  }

  static empty(budget: string, key: string): UsageTally {
    return new UsageTally({ id: UsageTally.idOf(budget, key), budget, key, buckets: [] });
  }

  static fromPrimitives(props: UsageTallyPrimitives): UsageTally {
    return new UsageTally(props);
  }

  /** Units counted as of `now` (ISO). */
  used(budget: Budget, now: string): number {
    return this.live(budget, Date.parse(now)).reduce((sum, [, units]) => sum + units, 0);
  }

  /**
   * Spends `units` if they fit in the budget as of `now`: the tally with them counted, or the
   * refusal. Reserve semantics: what is charged is counted at once, before the work it pays for.
   */
  charge(budget: Budget, units: number, now: string): UsageTally | Refusal {
    const at = Date.parse(now);
    const live = this.live(budget, at);
    const used = live.reduce((sum, [, n]) => sum + n, 0);
    if (used + units > budget.max) return { used, retryAfterSeconds: this.retryAfter(budget, live, at, used + units - budget.max) };
    return this.counting(budget, live, units, at);
  }

  /**
   * Reserves up to `want` units of a windowed budget in the bucket `now` falls in: as many as fit,
   * at least one, or the refusal when not even one does.
   */
  reserve(budget: Budget, want: number, now: string): Reservation | Refusal {
    const at = Date.parse(now);
    const live = this.live(budget, at);
    const used = live.reduce((sum, [, n]) => sum + n, 0);
    if (used + 1 > budget.max) return { used, retryAfterSeconds: this.retryAfter(budget, live, at, used + 1 - budget.max) };
    const granted = Math.min(want, budget.max - used);
    const bucket = at - (at % bucketMs(budget));
    return { tally: this.counting(budget, live, granted, at), granted, bucket, until: bucket + bucketMs(budget) };
  }

  /** Gives back `units` reserved in `bucket` and never used, as far as that bucket still counts them. */
  giveBack(budget: Budget, bucket: number, units: number, now: string): UsageTally {
    const buckets = this.live(budget, Date.parse(now)).flatMap(([start, held]) =>
      start !== bucket ? [[start, held] as const] : held > units ? [[start, held - units] as const] : [],
    );
    return this.with({ buckets });
  }

  /** Counts `units` already spent (a model step's tokens), fitting or not. */
  record(budget: Budget, units: number, now: string): UsageTally {
    const at = Date.parse(now);
    return this.counting(budget, this.live(budget, at), units, at);
  }

  /**
   * Gives back `units` just charged, newest first: a charge another payer of the same work refused
   * (an anonymous session's address, after its own budget was charged) is undone, so the refused
   * work spends nothing.
   */
  refund(budget: Budget, units: number, now: string): UsageTally {
    const buckets = [...this.live(budget, Date.parse(now))];
    let left = units;
    while (left > 0 && buckets.length > 0) {
      const [start, held] = buckets[buckets.length - 1]!;
      const taken = Math.min(held, left);
      left -= taken;
      if (taken === held) buckets.pop();
      else buckets[buckets.length - 1] = [start, held - taken];
    }
    return this.with({ buckets });
  }

  /** Null while at least one unit is left; the refusal once the budget is spent. */
  refusalAt(budget: Budget, now: string): Refusal | null {
    const at = Date.parse(now);
    const live = this.live(budget, at);
    const used = live.reduce((sum, [, n]) => sum + n, 0);
    return used < budget.max ? null : { used, retryAfterSeconds: this.retryAfter(budget, live, at, used - budget.max + 1) };
  }

  figures(budget: Budget, now: string): UsageFigures {
    const at = Date.parse(now);
    const live = this.live(budget, at);
    const used = live.reduce((sum, [, n]) => sum + n, 0);
    const remaining = Math.max(0, budget.max - used);
    const oldest = live[0];
    const frees = oldest && budget.windowSeconds !== null ? expiry(budget, oldest[0]) : null;
    return {
      used,
      max: budget.max,
      windowSeconds: budget.windowSeconds,
      remaining,
      resetsAt: frees === null ? null : new Date(frees).toISOString(),
      retryAfter: remaining > 0 ? null : this.retryAfter(budget, live, at, used - budget.max + 1),
    };
  }

  private live(budget: Budget, at: number): ReadonlyArray<readonly [number, number]> {
    if (budget.windowSeconds === null) return this.props.buckets;
    return this.props.buckets.filter(([start]) => expiry(budget, start) > at);
  }

  /** The tally with `units` counted at `at`, in the bucket `at` falls in. */
  private counting(budget: Budget, live: ReadonlyArray<readonly [number, number]>, units: number, at: number): UsageTally {
    const start = budget.windowSeconds === null ? 0 : at - (at % bucketMs(budget));
    const last = live[live.length - 1];
    const buckets =
      last && last[0] === start ? [...live.slice(0, -1), [start, last[1] + units] as const] : [...live, [start, units] as const];
    return this.with({ buckets });
  }

  /** Seconds until `need` units have freed, oldest first; null when they never will. */
  private retryAfter(budget: Budget, live: ReadonlyArray<readonly [number, number]>, at: number, need: number): number | null {
    if (budget.windowSeconds === null) return null;
    let freed = 0;
    for (const [start, units] of live) {
      freed += units;
      if (freed >= need) return Math.max(1, Math.ceil((expiry(budget, start) - at) / 1000));
    }
    return null;
  }
}

/** A sixtieth of the window, at least a second. */
function bucketMs(budget: Budget): number {
  return Math.max(1000, Math.ceil(((budget.windowSeconds ?? 0) * 1000) / 60));
}

/** When a bucket's units stop counting: its end plus the window. */
function expiry(budget: Budget, start: number): number {
  return start + bucketMs(budget) + (budget.windowSeconds ?? 0) * 1000;
}
