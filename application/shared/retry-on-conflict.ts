import { Conflict } from '../../domain/errors.js';

/** What an attempt answers when its swap lost the race: the helper reads again and retries. */
export const LOST_RACE: unique symbol = Symbol('lost the race');
export type LostRace = typeof LOST_RACE;

/**
 * How many rounds a read-change-swap gets. Every lost round means another writer won one, and a
 * record has a handful of writers at a time at most (the person and a second tab, a heartbeat or
 * poll, the sweep, another instance): eight rounds run out only when something keeps writing it,
 * and then "try again" is the honest answer.
 */
export const CONFLICT_ATTEMPTS = 8;

export interface RetryOptions<T> {
  /** Rounds before giving up; a call site that needs another bound says why. */
  readonly attempts?: number;
  /** What every round lost answers; by default a 409 Conflict naming `what`. */
  readonly exhausted?: () => T | Promise<T>;
  /** What kept changing, for the default Conflict ("The run"). */
  readonly what?: string;
}

/**
 * Runs `attempt` (which reads, decides and swaps) until it answers anything but LOST_RACE, at most
 * `attempts` times. The one loop for every compare-and-swap that must land on the latest revision.
 */
export async function retryOnConflict<T>(attempt: (round: number) => Promise<T | LostRace>, options: RetryOptions<T> = {}): Promise<T> {
  const attempts = options.attempts ?? CONFLICT_ATTEMPTS;
  for (let round = 0; round < attempts; round++) {
    const answer = await attempt(round);
    if (answer !== LOST_RACE) return answer;
  }
  if (options.exhausted) return options.exhausted();
  throw new Conflict(`${options.what ?? 'The record'} kept changing under this request; try again`);
}
