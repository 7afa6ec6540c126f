import { Unavailable } from '../../../domain/errors.js';

/** Node and driver codes that mean "the database is not there", not "the statement is wrong". */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  // SQLite: the file cannot be opened, stays locked past the busy timeout, or the disk fails.
  'SQLITE_CANTOPEN',
  'SQLITE_BUSY',
  'SQLITE_IOERR',
  // PostgreSQL: shutting down, starting up, or out of connection slots.
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

const UNREACHABLE_MESSAGES = [/connection terminated/i, /timeout acquiring a connection/i, /connection timeout/i];

/** True when the error says the database cannot be reached (rather than that a statement failed). */
export function isUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) return true;
  if (error.name === 'KnexTimeoutError' || UNREACHABLE_MESSAGES.some((pattern) => pattern.test(error.message))) return true;
  // Node reports a refused dual-stack connect (localhost) as an AggregateError of the attempts.
  return error instanceof AggregateError && error.errors.some(isUnreachable);
}

/** The error to hand to a caller: Unavailable when the database cannot be reached, else the error itself. */
export function storeError(error: unknown): unknown {
  if (!isUnreachable(error)) return error;
  const unavailable = new Unavailable('The store database cannot be reached');
  Object.defineProperty(unavailable, 'cause', { value: error, enumerable: false });
  return unavailable;
}
