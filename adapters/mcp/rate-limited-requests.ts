import type { RequestId } from '@modelcontextprotocol/server';

/**
 * The door's JSON-RPC error code for a call refused over a breaker or a budget: in the range
 * JSON-RPC leaves to servers (-32000 to -32099), ending in 29 after HTTP's 429.
 */
export const RATE_LIMITED = -32029;

/**
 * The requests of a session the server refused as rate limited, while their answer is on its way
 * back: the transport turns an answer whose every request was refused into HTTP 429 with
 * `Retry-After`, so a client that reads only the status still backs off. Keyed as
 * InFlightRequests keys them (`1` and `"1"` apart).
 */
export class RateLimitedRequests {
  private readonly refused = new Map<string, number | null>();

  /** Whether no request was refused: then there is nothing to take, and no request ids need listing. */
  get empty(): boolean {
    return this.refused.size === 0;
  }

  note(id: RequestId, retryAfterSeconds: number | null): void {
    this.refused.set(`${typeof id}:${String(id)}`, retryAfterSeconds);
  }

  /**
   * Whether every one of `keys` was refused (none are then kept), and the longest wait among them
   * (null when none of them frees); null when any ran or failed otherwise, or there were none.
   */
  take(keys: ReadonlyArray<string>): { retryAfterSeconds: number | null } | null {
    if (this.refused.size === 0 || keys.length === 0) return null;
    const waits = keys.map((key) => this.refused.get(key));
    for (const key of keys) this.refused.delete(key);
    if (waits.some((wait) => wait === undefined)) return null;
    const known = waits.filter((wait): wait is number => typeof wait === 'number');
    return { retryAfterSeconds: known.length === waits.length ? Math.max(...known) : null };
  }

  forget(keys: ReadonlyArray<string>): void {
    if (this.refused.size === 0) return;
    for (const key of keys) this.refused.delete(key);
  }
}
