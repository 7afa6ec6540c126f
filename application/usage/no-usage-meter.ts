import type { Payer } from '../../domain/usage/payer.js';
import type { UsageMeter } from './usage-meter.js';

/** The meter of a deployment that meters nothing: every charge fits, no breaker trips, nothing is read or written. */
export class NoUsageMeter implements UsageMeter {
  async charge(): Promise<void> {}

  async ensureLeft(): Promise<void> {}

  async record(): Promise<void> {}

  keysOf(payer: Payer | string): string[] {
    return [typeof payer === 'string' ? payer : payer.subject];
  }

  async breaker(): Promise<null> {
    return null;
  }

  async figures(): Promise<Record<string, never>> {
    return {};
  }

  async addressFigures(): Promise<null> {
    return null;
  }
}
