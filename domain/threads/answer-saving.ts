import { Unavailable } from '../errors.js';

/**
 * How a finished answer is saved when the store is away: tried again with a doubling delay (from
 * `firstDelayMs`, at most `maxDelayMs` apart); the stream waits up to `streamWaitMs` for it, then
 * says the answer is not saved yet and the instance keeps trying for as long as it lives, holding
 * at most `maxKept` such answers (the oldest given up past that).
 */
export interface AnswerSaving {
  readonly firstDelayMs: number;
  readonly maxDelayMs: number;
  readonly streamWaitMs: number;
  readonly maxKept: number;
}

export const DEFAULT_ANSWER_SAVING: AnswerSaving = { firstDelayMs: 100, maxDelayMs: 5_000, streamWaitMs: 10_000, maxKept: 100 };

/** The delay before try `attempt` (1 for the first retry). */
export function saveRetryDelayMs(saving: AnswerSaving, attempt: number): number {
  return Math.min(saving.maxDelayMs, saving.firstDelayMs * 2 ** Math.max(0, attempt - 1));
}

/** Only a store that cannot serve right now is worth waiting for; any other failure is the write's own. */
export function worthRetrying(error: unknown): boolean {
  return error instanceof Unavailable;
}

/** What the stream says when its answer could not be saved before it ends. */
export function unsavedAnswerText(kept: boolean): string {
  return kept
    ? 'This answer could not be saved: the database is unavailable. This server keeps it and saves it when the database is back.'
    : 'This answer could not be saved: the database did not take it.';
}
