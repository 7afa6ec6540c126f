import { NO_SLOT, type TurnSlot, type TurnSlots } from './turn-slots.js';

/** No bound on turns in flight (`maxTurnsInFlight: false`): every turn gets a place that holds nothing. */
export class NoTurnSlots implements TurnSlots {
  async take(): Promise<TurnSlot> {
    return NO_SLOT;
  }
}
