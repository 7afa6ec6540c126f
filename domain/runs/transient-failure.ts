import { AtomicityUnavailable, Unavailable } from '../errors.js';

/** Network failures that say the other side was briefly out of reach, not that the request was wrong. */
const TRANSIENT_NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/**
 * Whether a run that failed with `error` may succeed if tried again unchanged: the model answered
 * 5xx, 408 or 429 or timed out, a connection dropped, the store or another service was
 * `unavailable` (a sandbox that would not start included). A denial, a guard refusal, a stop, a
 * bad request or a missing capability (`AtomicityUnavailable`: the store cannot do it at all) are
 * not. Errors are read by their shape (the AI SDK's `statusCode`, a wrapped `cause` or
 * `lastError`), so no provider's classes are needed here.
 */
export function isTransientFailure(error: unknown, depth = 0): boolean {
  if (depth > 4 || typeof error !== 'object' || error === null) return false;
  if (error instanceof AtomicityUnavailable) return false;
  if (error instanceof Unavailable) return true;
  const shape = error as { name?: unknown; statusCode?: unknown; code?: unknown; cause?: unknown; lastError?: unknown };
  if (typeof shape.statusCode === 'number') return shape.statusCode >= 500 || shape.statusCode === 408 || shape.statusCode === 429;
  if (shape.name === 'TimeoutError') return true;
  if (typeof shape.code === 'string' && TRANSIENT_NETWORK_CODES.has(shape.code)) return true;
  // The AI SDK wraps the failure of its last retry (RetryError.lastError); fetch wraps the socket's (cause).
  return isTransientFailure(shape.lastError, depth + 1) || isTransientFailure(shape.cause, depth + 1);
}
