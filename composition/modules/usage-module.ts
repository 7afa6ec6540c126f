import { get, porterModule, recordsOf, TOKENS } from '../tokens.js';
import type { UsageTallyPrimitives } from '../../domain/usage/usage-tally.js';
import { UsageBook } from '../../application/usage/usage-book.js';
import { UsageMeter } from '../../application/usage/usage-meter.js';
import { GetUsage } from '../../application/usage/get-usage.js';
import { usageRoutes } from '../../adapters/http/routes/usage-routes.js';

/** Budgets (`limits`) and breakers, metered on the store, and `GET /usage`. */
export const usageModule = porterModule((bind) => {
  bind.singleton(TOKENS.UsageMeter, (ctx) => {
    const config = get(ctx, TOKENS.Config);
    return new UsageMeter({
      book: new UsageBook(recordsOf<UsageTallyPrimitives>(ctx, 'usage')),
      clock: get(ctx, TOKENS.Clock),
      settings: { limits: config.limits, breakers: config.breakers },
    });
  });
  bind.singleton(TOKENS.UsageUseCases, (ctx) => ({ getUsage: new GetUsage(get(ctx, TOKENS.UsageMeter)) }));
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) => usageRoutes(get(ctx, TOKENS.UsageUseCases)));
});
