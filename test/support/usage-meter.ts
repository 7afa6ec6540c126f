import type { Limits } from '../../domain/usage/budget.js';
import { DEFAULT_BREAKERS } from '../../domain/usage/budget.js';
import type { UsageTallyPrimitives } from '../../domain/usage/usage-tally.js';
import type { Clock } from '../../ports/clock.js';
import type { Store } from '../../ports/store.js';
import { UsageBook } from '../../application/usage/usage-book.js';
import { TalliedUsageMeter } from '../../application/usage/usage-meter.js';

/** The usage meter over `store`, as the usage module builds it: `limits` per subject, `perAddress` shared by anonymous sessions. */
export function usageMeterOn(store: Store, clock: Clock, limits: Limits, perAddress: Limits | null = null): TalliedUsageMeter {
  return new TalliedUsageMeter({
    book: new UsageBook(store.records<UsageTallyPrimitives>('usage')),
    clock,
    settings: { limits, perAddress, breakers: DEFAULT_BREAKERS },
  });
}
