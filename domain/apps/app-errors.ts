import { Conflict, DomainError, Forbidden, InvalidInput, Unavailable, type ErrorCode } from '../errors.js';
import type { DocumentIssue } from './validate-document.js';
import { defined } from '../defined.js';

/** A generated, imported or pinned document broke the AppDocument rules; nothing was stored. */
export class InvalidAppDocument extends InvalidInput {
  constructor(what: string, issues: ReadonlyArray<DocumentIssue>) {
    super(`The ${what} is not a valid app document`, issues);
  }
}

/**
 * The model's answer could not be made into the app: prose instead of JSON, a document cut off, one
 * that breaks the AppDocument rules (its issues in `details`), or the call to the model failing. The
 * model failed, not the caller, so this is `unavailable` (503) as for a model that is down, never the
 * caller's 400 or our 500; nothing was stored, and asking again may well succeed.
 */
export class AppGenerationFailed extends Unavailable {
  constructor(reason: string, issues?: ReadonlyArray<DocumentIssue>) {
    super(`The model could not write this app (${reason}); nothing was saved. Try again`, issues ? { issues } : undefined);
  }
}

/** An edit classified as tree-only produced server code: it fails closed before persistence. */
export class TreeEditEmittedServerCode extends Forbidden {
  constructor() {
    super('This edit was classified as a tree edit but its output contains server code; nothing was saved');
  }
}

/** Someone else changed the app between our read and our write. */
export class AppChangedMeanwhile extends Conflict {
  constructor(appId: string) {
    super(`App ${appId} changed while this change was being made; try again`);
  }
}

export class PinNotDrifted extends Conflict {
  constructor(slot: string) {
    super(`The fork of "${slot}" is not drifted: there is nothing to rebase`);
  }
}

export class NotAFork extends Conflict {
  constructor(appId: string, slot: string) {
    super(`App ${appId} is not a fork of "${slot}"`);
  }
}

export class AppNotServed extends Conflict {
  constructor(appId: string) {
    super(`App ${appId} is not a served app; graduate it first`);
  }
}

export class AlreadyServed extends Conflict {
  constructor(appId: string) {
    super(`App ${appId} is already a served app`);
  }
}

/** A step of graduation or of a served edit failed; the previous rung keeps serving. */
export class ServedStepFailed extends DomainError {
  constructor(step: string, cause: string, code: 'conflict' | 'unavailable' = 'conflict', details: Record<string, unknown> = {}) {
    super(code, `The served app could not be updated (${step} failed: ${cause}); the previous version keeps serving`, { ...details, step });
  }
}

/**
 * A served app whose server its sandbox stopped for crossing a limit (memory, processes, CPU time,
 * disk): it stays stopped until `retryAt`, and every request until then says why.
 */
export class AppServerStopped extends Unavailable {
  constructor(stop: { limit: string; message: string; retryAt: string }, retryAfterSeconds: number) {
    super(`${stop.message}. It can start again in ${retryAfterSeconds} s, or sooner once its owner changes it.`, {
      reason: 'app-limit',
      limit: stop.limit,
      retryAt: stop.retryAt,
      retryAfter: retryAfterSeconds,
    });
  }
}

/** The named action exists but does not run a host tool (records and functions have their own routes). */
export class NotAToolAction extends Conflict {
  constructor(appId: string, action: string) {
    super(`Action ${action} of app ${appId} does not run a tool`);
  }
}

/** The host's policy blocks this tool when an app runs it; it did not run and will not ask. */
export class AppToolBlocked extends Forbidden {
  constructor(tool: string, reason: string) {
    super(reason, { status: 'blocked', tool });
  }
}

const TOOL_FAILURE_CODES: ReadonlyArray<ErrorCode> = [
  'validation',
  'unauthorized',
  'forbidden',
  'not-found',
  'conflict',
  'rate-limited',
  'not-implemented',
  'unavailable',
];

/**
 * The tool ran and failed. A failure the tool reported with one of our codes (a connection that is
 * missing, act-as refusing) keeps it; anything else is the tool being unavailable.
 */
export class AppToolFailed extends DomainError {
  constructor(tool: string, error: string, code?: string) {
    const known = TOOL_FAILURE_CODES.find((c) => c === code);
    super(known ?? 'unavailable', `${tool} failed: ${error}`, { status: 'failed', tool, ...defined({ cause: code || undefined }) });
  }
}

/** The served app answered its page with an error, or with something the wire will not pass on. */
export class AppPageFailed extends Unavailable {
  constructor(status: number, reason: string) {
    super(`The app's page could not be shown (${reason})`, { status });
  }
}

/** The served app's server did not take the request (restarting, stopped, or gone): try again shortly. */
export class AppServerUnreachable extends Unavailable {
  constructor() {
    super("The app's server did not answer; it may be restarting. Try again shortly");
  }
}
