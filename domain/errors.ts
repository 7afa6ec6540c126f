import { defined } from './defined.js';
/**
 * Every failure the core reports is a DomainError: a fact with a stable code. On the wire, one
 * middleware (`adapters/http/error-envelope.ts`, `STATUS_BY_CODE`) turns a code into its status
 * and the envelope; route handlers choose only success statuses (a served app's 2xx passes
 * through). The MCP door answers in its protocols' own shapes and statuses instead
 * (`adapters/mcp/`: OAuth errors, whose `OAuthRefusal` carries its status, and JSON-RPC errors).
 */
export type ErrorCode =
  | 'validation'
  | 'unauthorized'
  | 'cloud-required'
  | 'forbidden'
  | 'not-found'
  | 'method-not-allowed'
  | 'conflict'
  | 'payload-too-large'
  | 'unsupported-media-type'
  | 'rate-limited'
  | 'internal'
  | 'not-implemented'
  | 'unavailable';

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** An id that does not exist, or exists but belongs to someone else (never reveal which). */
export class NotFound extends DomainError {
  constructor(what: string) {
    super('not-found', `${what} was not found`);
  }
}

export class InvalidInput extends DomainError {
  constructor(message: string, issues?: ReadonlyArray<{ path: string; message: string }>) {
    super('validation', message, issues ? { issues } : undefined);
  }
}

export class Forbidden extends DomainError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('forbidden', message, details);
  }
}

export class Conflict extends DomainError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('conflict', message, details);
  }
}

export class Unauthorized extends DomainError {
  constructor(message = 'The request could not be authenticated') {
    super('unauthorized', message);
  }
}

/** A seam this deployment did not configure (no sandbox, no model, no connections...). */
export class NotImplemented extends DomainError {
  constructor(message: string) {
    super('not-implemented', message);
  }
}

/** Callers tell failures apart by class (`instanceof Unavailable`), never by comparing codes. */
export class Unavailable extends DomainError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('unavailable', message, details);
  }
}

/** Organizations are a hosted-cloud capability; the embedded runtime refuses them outright. */
export class OrganizationsRequireCloud extends DomainError {
  constructor() {
    super('cloud-required', 'Organizations are available only in Porter Cloud');
  }
}

/** A path that exists, asked with a method it does not take; `allowed` are the ones it does. */
export class MethodNotAllowed extends DomainError {
  constructor(
    method: string,
    readonly allowed: ReadonlyArray<string>,
  ) {
    super('method-not-allowed', `This path does not take ${method}: use ${allowed.join(', ')}`, { allowed: [...allowed] });
  }
}

export class PayloadTooLarge extends DomainError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('payload-too-large', message, details);
  }
}

export class UnsupportedMediaType extends DomainError {
  constructor(message: string) {
    super('unsupported-media-type', message);
  }
}

/**
 * The store in use lacks an atomic capability a rule depends on (claim, insertIfAbsent,
 * compareAndSwap). Callers fail closed instead of risking a double execution.
 */
export class AtomicityUnavailable extends Unavailable {
  constructor(capability: string) {
    super(`This store does not offer ${capability}, which this action needs to run exactly once`);
  }
}

/**
 * A budget (`limits`), a breaker or the bound on turns in flight refused: 429 on the wire with
 * `Retry-After` (when the window will free a unit) and the budget's name in `details`, and
 * `sharedBy: "address"` when it was the budget an anonymous session shares with the others of its
 * address; a turn refused mid-way ends with an error part saying this message.
 */
export class LimitReached extends DomainError {
  constructor(
    readonly budget: string,
    readonly retryAfterSeconds: number | null,
    message: string,
    readonly sharedBy?: 'address',
  ) {
    super('rate-limited', message, {
      budget,
      ...defined({ retryAfter: retryAfterSeconds ?? undefined, sharedBy }),
    });
  }
}
