import { AppServerUnreachable } from '../../domain/apps/app-errors.js';
import { DomainError } from '../../domain/errors.js';
import type { SandboxSession } from '../../ports/sandbox.js';

/**
 * A request to the served app's own server. A connection that fails (the server restarting after
 * another graduation, or stopped) is `unavailable`, not an unexpected error; the sandbox's own
 * refusals and an abort from the caller's signal pass through.
 */
export function askServedApp(session: SandboxSession, path: string, init: RequestInit): Promise<Response> {
  return orUnreachable(session.fetch(path, init), init.signal);
}

/** `work` (a request to the app's server, or reading its answer), its connection failures `unavailable`. */
export async function orUnreachable<T>(work: Promise<T>, signal?: AbortSignal | null): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof DomainError || signal?.aborted) throw error;
    throw new AppServerUnreachable();
  }
}
