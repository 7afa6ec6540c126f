import { BrokerRefused, BrokerUnavailable } from '../../domain/connections/errors.js';

/** What an SDK's HTTP error tells us, read without trusting its shape (axios, Stainless, fetch). */
export interface FailureFacts {
  readonly status: number | null;
  /** The broker's own error code from its body, when it has one. */
  readonly code: string | null;
}

export function factsOf(error: unknown, depth = 0): FailureFacts {
  const own = ownFacts(error);
  // SDKs wrap the HTTP error in one of their own (Composio's link() does): look one level in.
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (own.status === null && cause && depth < 2) return factsOf(cause, depth + 1);
  return own;
}

function ownFacts(error: unknown): FailureFacts {
  const e = error as { status?: unknown; response?: { status?: unknown; data?: unknown }; error?: unknown } | null;
  const status = typeof e?.response?.status === 'number' ? e.response.status : typeof e?.status === 'number' ? e.status : null;
  const body = (e?.response?.data ?? e?.error) as { error?: { code?: unknown } | string; code?: unknown } | undefined;
  const nested = typeof body?.error === 'object' && body.error !== null ? body.error.code : undefined;
  const code =
    typeof nested === 'string' ? nested : typeof body?.code === 'string' ? body.code : typeof body?.error === 'string' ? body.error : null;
  return { status, code };
}

/**
 * Turns an SDK failure into a domain error that says what happened and nothing more. The raw error
 * is never passed on: SDK errors carry the request, and the request carries the broker's key.
 */
export function brokerFailure(broker: string, doing: string, error: unknown): Error {
  const { status, code } = factsOf(error);
  // The one refusal a person causes by choosing: said in words, not as a status and a code.
  if (code === 'unknown-toolkit') return new BrokerRefused(broker, 'that toolkit is not set up on it');
  const what = `${doing} failed${status ? ` with HTTP ${status}` : ''}${code ? ` (${code.slice(0, 80)})` : ''}`;
  if (status !== null && status >= 400 && status < 500 && status !== 401 && status !== 403 && status !== 408 && status !== 429) {
    return new BrokerRefused(broker, what);
  }
  // Unreachable, timed out, rate-limited, a server error, or our key was refused: not the caller's fault.
  return new BrokerUnavailable(broker, status ? what : `${doing} failed: the broker could not be reached`);
}

export function isNotFound(error: unknown): boolean {
  return factsOf(error).status === 404;
}
