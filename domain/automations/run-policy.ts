/**
 * How an automation's runs behave once started: how often a run that failed for a transient
 * reason is tried again, and how many of its runs may be in flight at once.
 */

/** Retries after a transient failure: up to `max` more attempts, the first after `backoffSeconds`, each wait doubling. */
export interface RetryPolicy {
  readonly max: number;
  readonly backoffSeconds: number;
}

/** Two retries, 30 s then 60 s after the failures. */
export const DEFAULT_RETRY: RetryPolicy = { max: 2, backoffSeconds: 30 };

/** No retries: a dry run answers the person waiting for it at once. */
export const NO_RETRY: RetryPolicy = { max: 0, backoffSeconds: 0 };

/**
 * At most `limit` runs of one automation in flight (begun and not ended: running, waiting for an
 * approval or for its next attempt). One that arrives while they are waits its turn (`queue`) or
 * is recorded as skipped (`skip`).
 */
export interface ConcurrencyPolicy {
  readonly limit: number;
  readonly whenBusy: 'queue' | 'skip';
}

/** One run at a time, the others queued behind it. */
export const DEFAULT_CONCURRENCY: ConcurrencyPolicy = { limit: 1, whenBusy: 'queue' };

/** How long to wait before attempt `failed + 1`, after `failed` attempts failed (exponential from `backoffSeconds`). */
export function retryDelayMs(policy: RetryPolicy, failed: number): number {
  return policy.backoffSeconds * 1000 * 2 ** Math.max(0, failed - 1);
}
