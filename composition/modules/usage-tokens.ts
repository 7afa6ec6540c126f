import { token } from '../tokens.js';
import type { UsageMeter } from '../../application/usage/usage-meter.js';
import type { TurnSlots } from '../../application/usage/turn-slots.js';
import type { UsageUseCases } from '../../ports/use-cases/usage.js';

/** Budgets and turns in flight: what usage-module.ts binds. */
export const USAGE_TOKENS = {
  /** The subjects' budgets (`limits`) and the breakers, on the store. */
  UsageMeter: token<UsageMeter>('UsageMeter'),
  /** The bound on each subject's turns in flight (`maxTurnsInFlight`), on the store. */
  TurnSlots: token<TurnSlots>('TurnSlots'),
  UsageUseCases: token<UsageUseCases>('UsageUseCases'),
};
