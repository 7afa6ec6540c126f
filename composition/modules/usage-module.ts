import { get, porterModule, TOKENS } from '../tokens.js';
import type { UsageTallyPrimitives } from '../../domain/usage/usage-tally.js';
import { UsageBook } from '../../application/usage/usage-book.js';
import { UsageMeter } from '../../application/usage/usage-meter.js';
import { GetUsage } from '../../application/usage/get-usage.js';
import { usageRoutes } from '../../adapters/http/routes/usage-routes.js';

/** Budgets (`limits`) and breakers, metered on the store, and `GET /usage`. */
export const usageModule = porterModule((bind) => {
  bind(TOKENS.UsageMeter)
    .toDynamicValue((ctx) => {
      const config = get(ctx, TOKENS.Config);
      return new UsageMeter({
        book: new UsageBook(get(ctx, TOKENS.Store).records<UsageTallyPrimitives>('usage')),
        clock: get(ctx, TOKENS.Clock),
        settings: { limits: config.limits, breakers: config.breakers },
      });
    })
    .inSingletonScope();
  bind(TOKENS.UsageUseCases)
    .toDynamicValue((ctx) => ({ getUsage: new GetUsage(get(ctx, TOKENS.UsageMeter)) }))
    .inSingletonScope();
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) => usageRoutes(get(ctx, TOKENS.UsageUseCases)));
});
