import type { PinBaseline, PinCatalog } from '../../ports/pin-catalog.js';

/** The catalog of a deployment that declares no remixable slots (the null object): no slot exists, the sync finds nothing. */
export class NoPinCatalog implements PinCatalog {
  async all(): Promise<{ baselines: PinBaseline[]; missing: Array<{ slot: string; reason: string }> }> {
    return { baselines: [], missing: [] };
  }

  async baseline(): Promise<PinBaseline | null> {
    return null;
  }
}
