import { LimitReached } from '../../domain/errors.js';
import type { Payer } from '../../domain/usage/payer.js';
import { TURNS_IN_FLIGHT, TurnsInFlight } from '../../domain/usage/turns-in-flight.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import { LOST_RACE, retryOnConflict } from '../shared/retry-on-conflict.js';
import type { LoadedTurnsInFlight, TurnsInFlightBook } from './turns-in-flight-book.js';
import { waitInWords } from '../../domain/usage/wait-in-words.js';

/** A place among a payer's turns in flight, renewed until it is let go. */
export interface TurnSlot {
  /** Lets the place go (never throws: a place that cannot be let go lapses with its lease). */
  release(): Promise<void>;
}

export interface TurnSlotSettings {
  /** At most this many turns of one subject (and of one shared address) at once; null: no bound. */
  readonly max: number | null;
  /** How long a place lasts unrenewed; its holder renews it every third of that. */
  readonly leaseMs: number;
}

/** The bound on a payer's turns in flight: on the store (`LeasedTurnSlots`), or none (`NoTurnSlots`). */
export interface TurnSlots {
  /** A place for the turn `holdId`, or LimitReached (nothing held). */
  take(payer: Payer, holdId: string): Promise<TurnSlot>;
}

/** What LeasedTurnSlots is built from. */
export interface LeasedTurnSlotsDeps {
  readonly book: TurnsInFlightBook;
  /** The keys a payer is counted under (its subject, and an anonymous session's shared address): UsageMeter.keysOf. */
  readonly keysOf: (payer: Payer) => string[];
  readonly clock: Clock;
  readonly logger: Logger;
  readonly settings: TurnSlotSettings;
}

/** How many keys' records one instance remembers as it last stored them. */
const REMEMBERED = 10_000;

/** No place held (no bound, or the caller holds one already): letting it go does nothing. */
export const NO_SLOT: TurnSlot = { release: async () => undefined };

/**
 * The bound on how many turns (chat turns, dry runs) one subject runs at once (`maxTurnsInFlight`),
 * kept in the store so it holds across instances. A turn takes a place before it spends anything
 * and keeps it while it runs; one that finds every place taken is refused with 429
 * `rate-limited` (`details.budget: "turnsInFlight"`). An anonymous session whose address shares
 * budgets takes a place of the address's too. A place whose instance died lapses with its lease.
 */
export class LeasedTurnSlots implements TurnSlots {
  /**
   * Each key's record as this instance last stored it: the next take swaps with it before reading
   * (a person's turns mostly land on one instance), and reads again when the swap loses.
   */
  private readonly remembered = new Map<string, LoadedTurnsInFlight>();

  constructor(private readonly deps: LeasedTurnSlotsDeps) {}

  /** A place for the turn `holdId`, or LimitReached (nothing held). */
  async take(payer: Payer, holdId: string): Promise<TurnSlot> {
    const max = this.deps.settings.max;
    if (max === null) return NO_SLOT;
    const held: string[] = [];
    // Each key's record as this turn last stored it: letting the place go tries it before reading
    // again (a renewal forgets it, having written since).
    const stored = new Map<string, LoadedTurnsInFlight>();
    for (const key of this.deps.keysOf(payer)) {
      const taken = await this.takeOne(key, holdId, max);
      if ('retryAfterSeconds' in taken) {
        for (const done of held) await this.releaseOne(done, holdId, stored.get(done));
        throw turnsInFlightReached(max, taken.retryAfterSeconds, key !== payer.subject);
      }
      held.push(key);
      stored.set(key, taken.stored);
    }
    const heartbeat = setInterval(
      () => {
        stored.clear();
        void this.renew(held, holdId);
      },
      Math.max(50, Math.floor(this.deps.settings.leaseMs / 3)),
    );
    heartbeat.unref?.();
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        clearInterval(heartbeat);
        for (const key of held) await this.releaseOne(key, holdId, stored.get(key));
      },
    };
  }

  private takeOne(key: string, holdId: string, max: number): Promise<{ retryAfterSeconds: number } | { stored: LoadedTurnsInFlight }> {
    let known = this.remembered.get(key) ?? null;
    this.remembered.delete(key);
    return retryOnConflict<{ retryAfterSeconds: number } | { stored: LoadedTurnsInFlight }>(
      async () => {
        const guessed = known;
        known = null;
        const loaded = guessed ?? (await this.deps.book.find(key));
        const taken = (loaded?.turns ?? TurnsInFlight.empty(key)).take(holdId, max, this.now(), this.until());
        // Full as remembered: places may have been let go elsewhere since, so only the store's word refuses.
        if (!(taken instanceof TurnsInFlight)) return guessed ? LOST_RACE : taken;
        const stored = await this.deps.book.replace(loaded, taken);
        if (stored) this.remember(key, stored);
        return stored ? { stored } : LOST_RACE;
      },
      // Every turn of the subject writes this one record: a few more rounds than a person's record gets.
      { attempts: 16, what: 'The turns in flight' },
    );
  }

  private async renew(keys: ReadonlyArray<string>, holdId: string): Promise<void> {
    for (const key of keys) {
      let known = this.remembered.get(key) ?? null;
      try {
        const kept = await retryOnConflict<boolean>(
          async () => {
            const guessed = known;
            known = null;
            const loaded = guessed ?? (await this.deps.book.find(key));
            const renewed = loaded?.turns.renew(holdId, this.until()) ?? null;
            // Not held as remembered: the store's word says whether the place was lost.
            if (!loaded || !renewed) return guessed ? LOST_RACE : false;
            const stored = await this.deps.book.replace(loaded, renewed);
            if (stored) this.remember(key, stored);
            return stored ? true : LOST_RACE;
          },
          { attempts: 16, exhausted: () => true },
        );
        if (!kept) this.deps.logger.warn('a turn lost its place among the turns in flight (its lease lapsed); it runs on', { holdId });
      } catch (error) {
        // The place lasts until its lease lapses; the next beat tries again.
        this.deps.logger.warn('renewing a place among the turns in flight failed', { holdId, cause: String(error) });
      }
    }
  }

  /**
   * `stored`: the record as this turn last stored it, else as this instance did, tried first to
   * spare a read; a lost race reads again.
   */
  private async releaseOne(key: string, holdId: string, stored?: LoadedTurnsInFlight): Promise<void> {
    let known = stored ?? this.remembered.get(key) ?? null;
    try {
      await retryOnConflict(
        async () => {
          const guessed = known;
          known = null;
          const loaded = guessed ?? (await this.deps.book.find(key));
          const released = loaded?.turns.release(holdId) ?? null;
          // Not held as known: only the store's word says there is nothing to let go.
          if (!loaded || !released) return guessed ? LOST_RACE : undefined;
          const stored = await this.deps.book.replace(loaded, released);
          if (stored) this.remember(key, stored);
          return stored ? undefined : LOST_RACE;
        },
        { attempts: 16, exhausted: () => undefined },
      );
    } catch (error) {
      this.deps.logger.warn('letting a place among the turns in flight go failed; it lapses with its lease', {
        holdId,
        cause: String(error),
      });
    }
  }

  private remember(key: string, stored: LoadedTurnsInFlight): void {
    // Bounded: a busy instance starts afresh rather than growing without end.
    if (this.remembered.size >= REMEMBERED) this.remembered.clear();
    this.remembered.set(key, stored);
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  private until(): string {
    return new Date(this.deps.clock.now().getTime() + this.deps.settings.leaseMs).toISOString();
  }
}

function turnsInFlightReached(max: number, retryAfterSeconds: number, shared: boolean): LimitReached {
  const whose = shared ? 'turns of anonymous sessions from this address' : 'of your turns';
  return new LimitReached(
    TURNS_IN_FLIGHT,
    retryAfterSeconds,
    `At most ${max} ${whose} run at once, and ${max} are running; try again ${waitInWords(retryAfterSeconds)}`,
    shared ? 'address' : undefined,
  );
}
