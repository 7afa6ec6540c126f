import { Conflict, NotFound, Unavailable } from '../../domain/errors.js';
import type { SandboxStop } from '../../ports/sandbox.js';

/**
 * The app server did not come up: it exited, or did not listen on `$PORT` in time. The message
 * carries the tail of its own output, which is what the person fixing the app needs to see.
 */
export class SandboxServerFailed extends Conflict {
  constructor(
    readonly reason: 'exited' | 'timeout',
    readonly outputTail: string,
  ) {
    const what = reason === 'exited' ? 'exited before it listened on $PORT' : 'did not listen on $PORT in time';
    super(`The app server ${what}.${outputTail ? `\n--- output (tail) ---\n${outputTail}` : ' It printed nothing.'}`, {
      reason,
      outputTail,
    });
  }
}

/** A request for the app server while none is running. */
export class SandboxServerNotRunning extends Conflict {
  constructor() {
    super('The app server is not running; start it first');
  }
}

/** A snapshot id this sandbox does not hold. */
export class SandboxSnapshotNotFound extends NotFound {
  constructor() {
    super('The sandbox snapshot');
  }
}

/** The sandbox provider (e2b, the cloud service) refused or failed a call. */
export class SandboxProviderFailed extends Unavailable {
  constructor(provider: string, message: string) {
    super(`The ${provider} sandbox provider failed: ${message}`);
  }
}

/** The app server was stopped for crossing one of its limits, and may not start again yet. */
export class SandboxStoppedForLimit extends Unavailable {
  constructor(stop: SandboxStop) {
    const retryAfter = Math.max(1, Math.ceil((Date.parse(stop.retryAt) - Date.now()) / 1000));
    super(`${stop.message}. It can start again in ${retryAfter} s.`, {
      reason: 'app-limit',
      limit: stop.limit,
      retryAt: stop.retryAt,
      retryAfter,
    });
  }
}
