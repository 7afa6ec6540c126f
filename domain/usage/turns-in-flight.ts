import { Aggregate } from '../aggregate.js';

/** The budget name a refusal of the bound on turns in flight carries (`maxTurnsInFlight`). */
export const TURNS_IN_FLIGHT = 'turnsInFlight';

/** One turn holding a place: its id, and until when unless its instance renews it. */
export interface TurnHold {
  readonly id: string;
  readonly until: string;
}

/**
 * The turns one key (a subject, or the address anonymous sessions share) has in flight at once,
 * each a hold with a lease: taken before the turn spends anything, renewed while it runs, let go
 * when it ends. A hold whose instance died lapses with its lease and no longer counts, so a crash
 * cannot keep a place forever. Every change is a compare-and-swap on this one record, so racing
 * turns on several instances get exactly the places left. This bounds how far past its `tokens`
 * budget a subject can go: by the steps of at most this many turns.
 */
export interface TurnsInFlightPrimitives {
  readonly id: string;
  readonly key: string;
  readonly holds: ReadonlyArray<TurnHold>;
}

export class TurnsInFlight extends Aggregate<TurnsInFlightPrimitives> {
  private constructor(props: TurnsInFlightPrimitives) {
    super(props);
  }

  static empty(key: string): TurnsInFlight {
    return new TurnsInFlight({ id: key, key, holds: [] });
  }

  static fromPrimitives(props: TurnsInFlightPrimitives): TurnsInFlight {
    return new TurnsInFlight(props);
  }

  /** The holds still live at `now`. */
  live(now: string): ReadonlyArray<TurnHold> {
    const at = Date.parse(now);
    return this.props.holds.filter((hold) => Date.parse(hold.until) > at);
  }

  /**
   * A place for `holdId` until `until`, when fewer than `max` holds are live (lapsed ones are
   * dropped); otherwise the refusal, with the seconds until the first live hold lapses unless its
   * instance renews it (a turn usually ends well before).
   */
  take(holdId: string, max: number, now: string, until: string): TurnsInFlight | { readonly retryAfterSeconds: number } {
    const live = this.live(now).filter((hold) => hold.id !== holdId);
    if (live.length >= max) {
      const first = Math.min(...live.map((hold) => Date.parse(hold.until)));
      return { retryAfterSeconds: Math.max(1, Math.ceil((first - Date.parse(now)) / 1000)) };
    }
    return this.with({ holds: [...live, { id: holdId, until }] });
  }

  /** The hold kept until `until`; null when it is no longer held (it lapsed and another turn took its place). */
  renew(holdId: string, until: string): TurnsInFlight | null {
    if (!this.holds(holdId)) return null;
    return this.with({ holds: this.props.holds.map((hold) => (hold.id === holdId ? { id: holdId, until } : hold)) });
  }

  /** The hold let go; null when it was not held. */
  release(holdId: string): TurnsInFlight | null {
    if (!this.holds(holdId)) return null;
    return this.with({ holds: this.props.holds.filter((hold) => hold.id !== holdId) });
  }

  holds(holdId: string): boolean {
    return this.props.holds.some((hold) => hold.id === holdId);
  }
}
