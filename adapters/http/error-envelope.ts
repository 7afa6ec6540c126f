import type { Middleware } from 'koa';
import { ZodError } from 'zod';
import { DomainError, LimitReached, MethodNotAllowed, type ErrorCode } from '../../domain/errors.js';
import type { Logger } from '../../ports/logger.js';

export const STATUS_BY_CODE: Readonly<Record<ErrorCode, number>> = {
  validation: 400,
  unauthorized: 401,
  'cloud-required': 402,
  forbidden: 403,
  'not-found': 404,
  'method-not-allowed': 405,
  conflict: 409,
  'payload-too-large': 413,
  'unsupported-media-type': 415,
  'rate-limited': 429,
  internal: 500,
  'not-implemented': 501,
  unavailable: 503,
};

const CODE_BY_STATUS: Readonly<Record<number, ErrorCode>> = Object.fromEntries(
  Object.entries(STATUS_BY_CODE).map(([code, status]) => [status, code as ErrorCode]),
);

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: Record<string, unknown> };
}

export function envelope(code: ErrorCode, message: string, details?: Record<string, unknown>): ErrorBody {
  return { error: details ? { code, message, details } : { code, message } };
}

/** Maps anything thrown to the contract's envelope; the single place errors become responses. */
export function toEnvelope(error: unknown, logger: Logger): { status: number; body: ErrorBody } {
  if (error instanceof DomainError) {
    return { status: STATUS_BY_CODE[error.code], body: envelope(error.code, error.message, error.details) };
  }
  if (error instanceof ZodError) {
    const issues = error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
    return { status: 400, body: envelope('validation', 'The request is not valid', { issues }) };
  }
  if (isUndecodableBody(error)) {
    return { status: 400, body: envelope('validation', 'The request body could not be decoded for its Content-Encoding') };
  }
  const status = httpStatusOf(error);
  if (status && status >= 400 && status < 500) {
    const code = CODE_BY_STATUS[status] ?? 'validation';
    const message = (error as { expose?: boolean; message?: string }).expose ? String((error as Error).message) : defaultMessage(code);
    return { status: STATUS_BY_CODE[code], body: envelope(code, message) };
  }
  logger.error('unexpected error on the wire', { cause: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  return { status: 500, body: envelope('internal', 'Something went wrong on our side') };
}

/** zlib's and brotli's errors (a body that claims gzip or br but is not): the caller's mistake, not ours. */
function isUndecodableBody(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(Z_|ERR_ZLIB|ERR__ERROR_)/.test(code);
}

function httpStatusOf(error: unknown): number | null {
  if (typeof error !== 'object' || error === null) return null;
  const status = (error as { status?: unknown; statusCode?: unknown }).status ?? (error as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' ? status : null;
}

function defaultMessage(code: ErrorCode): string {
  switch (code) {
    case 'not-found':
      return 'No such route';
    case 'payload-too-large':
      return 'The request body is too large';
    case 'unsupported-media-type':
      return 'Unsupported content type';
    default:
      return 'The request is not valid';
  }
}

/**
 * Outermost wire middleware: every non-2xx leaves as the envelope. Handlers that own their error
 * shape (the door's OAuth and JSON-RPC answers) set their body themselves and are left alone.
 */
export function errorEnvelope(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      // A handler that wrote its own answer (`ctx.respond = false`) has answered.
      if (ctx.status === 404 && ctx.body === undefined && ctx.respond !== false) {
        ctx.status = 404;
        ctx.body = envelope('not-found', 'No such route');
      }
    } catch (error) {
      const { status, body } = toEnvelope(error, logger);
      ctx.status = status;
      ctx.body = body;
      if (status === 401 && !ctx.response.get('WWW-Authenticate')) ctx.set('WWW-Authenticate', 'Bearer');
      if (error instanceof MethodNotAllowed) ctx.set('Allow', error.allowed.join(', '));
      // A refusal that knows when to come back says so: a budget's window freeing a unit (none when it
      // never will, e.g. a run's writes), an app stopped for a limit waiting out its cool-down.
      const retryAfter = retryAfterOf(error);
      if (retryAfter !== null) ctx.set('Retry-After', String(retryAfter));
    }
  };
}

/** Whole seconds to wait, from a refusal's `details.retryAfter`; null when it names none. */
function retryAfterOf(error: unknown): number | null {
  if (error instanceof LimitReached) return error.retryAfterSeconds;
  const seconds = error instanceof DomainError ? error.details?.retryAfter : undefined;
  return typeof seconds === 'number' && Number.isInteger(seconds) && seconds > 0 ? seconds : null;
}
