import { get, porterModule, recordsOf, TOKENS } from '../tokens.js';
import { USAGE_TOKENS } from './usage-tokens.js';
import type { UsageTallyPrimitives } from '../../domain/usage/usage-tally.js';
import { BREAKER_NAMES, BUDGET_NAMES, breakerBudget, limitBudget, type Limits } from '../../domain/usage/budget.js';
import type { PorterConfig } from '../config/config-schema.js';
import { UsageBook } from '../../application/usage/usage-book.js';
import { TalliedUsageMeter, type UsageSettings } from '../../application/usage/usage-meter.js';
import { NoUsageMeter } from '../../application/usage/no-usage-meter.js';
import { GetUsage } from '../../application/usage/get-usage.js';
import { LeasedTurnSlots } from '../../application/usage/turn-slots.js';
import { NoTurnSlots } from '../../application/usage/no-turn-slots.js';
import { TurnsInFlightBook } from '../../application/usage/turns-in-flight-book.js';
import { TURN_LEASE_MS } from '../../application/threads/turn-settings.js';
import type { TurnsInFlightPrimitives } from '../../domain/usage/turns-in-flight.js';
import { usageRoutes } from '../../adapters/http/routes/usage-routes.js';

/**
 * The budgets every subject has, and those the anonymous sessions of one address share: by
 * default the same as a subject's, each budget `anonymousPerAddress` names replacing its own;
 * null when nothing is shared (`false`, or no budget at all).
 */
export function usageLimitsOf(limits: PorterConfig['limits']): { limits: Limits; perAddress: Limits | null } {
  const { anonymousPerAddress, ...own } = limits;
  if (anonymousPerAddress === false) return { limits: own, perAddress: null };
  const shared = { ...own, ...anonymousPerAddress };
  return { limits: own, perAddress: Object.keys(shared).length > 0 ? shared : null };
}

/** No budget, nothing shared per address and every breaker off: the deployment is given NoUsageMeter. */
function metersNothing(settings: UsageSettings): boolean {
  return (
    BUDGET_NAMES.every((name) => limitBudget(settings.limits, name) === null) &&
    settings.perAddress === null &&
    BREAKER_NAMES.every((name) => breakerBudget(settings.breakers, name) === null)
  );
}

/** Budgets (`limits`), breakers and the bound on turns in flight, kept on the store, and `GET /usage`. */
export const usageModule = porterModule((bind) => {
  bind.singleton(USAGE_TOKENS.UsageMeter, (ctx) => {
    const config = get(ctx, TOKENS.Config);
    const settings = { ...usageLimitsOf(config.limits), breakers: config.breakers };
    if (metersNothing(settings)) return new NoUsageMeter();
    return new TalliedUsageMeter({
      book: new UsageBook(recordsOf<UsageTallyPrimitives>(ctx, 'usage')),
      clock: get(ctx, TOKENS.Clock),
      settings,
    });
  });
  bind.singleton(USAGE_TOKENS.TurnSlots, (ctx) => {
    const meter = get(ctx, USAGE_TOKENS.UsageMeter);
    const max = get(ctx, TOKENS.Config).maxTurnsInFlight;
    if (max === false) return new NoTurnSlots();
    return new LeasedTurnSlots({
      book: new TurnsInFlightBook(recordsOf<TurnsInFlightPrimitives>(ctx, 'turns-in-flight')),
      keysOf: (payer) => meter.keysOf(payer),
      clock: get(ctx, TOKENS.Clock),
      logger: get(ctx, TOKENS.Logger),
      // A place is renewed like a turn's hold on its thread: an instance that died frees it as soon.
      settings: { max, leaseMs: TURN_LEASE_MS },
    });
  });
  bind.singleton(USAGE_TOKENS.UsageUseCases, (ctx) => ({ getUsage: new GetUsage(get(ctx, USAGE_TOKENS.UsageMeter)) }));
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) => usageRoutes(get(ctx, USAGE_TOKENS.UsageUseCases)));
});
