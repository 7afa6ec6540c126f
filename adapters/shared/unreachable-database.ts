/**
 * Node socket and pg driver errors that mean "the PostgreSQL server is not there or did not
 * answer", not "the statement is wrong": the store and pg-boss both answer them as Unavailable.
 */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  // PostgreSQL: shutting down, starting up, or out of connection slots.
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

/**
 * PostgreSQL codes for a statement the server gave up on for taking too long (statement_timeout,
 * lock_timeout): the database is too busy or held by someone else, not the statement wrong.
 */
const TOO_SLOW_CODES = new Set(['57014', '55P03']);

/** pg's own deadlines, which carry no code: a statement unanswered past `query_timeout`. */
const NO_ANSWER_MESSAGES = [/^query read timeout$/i];

const UNREACHABLE_MESSAGES = [
  /connection terminated/i,
  // pg's Pool: no connection made, or handed out, within `connectionTimeoutMillis`.
  /^timeout exceeded when trying to connect$/i,
  // pg's Client: no connection made within `connectionTimeoutMillis`.
  /^timeout expired$/i,
];

export const CANNOT_BE_REACHED = 'cannot be reached';
export const DID_NOT_ANSWER = 'did not answer in time';

/**
 * Whether the PostgreSQL server `cannot be reached` or `did not answer in time`, by a Node or pg
 * error; null when the error is something else (the statement's own, or not a database's).
 */
export function unreachableDatabase(error: unknown): typeof CANNOT_BE_REACHED | typeof DID_NOT_ANSWER | null {
  if (!(error instanceof Error)) return null;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) return CANNOT_BE_REACHED;
  if (typeof code === 'string' && TOO_SLOW_CODES.has(code)) return DID_NOT_ANSWER;
  if (NO_ANSWER_MESSAGES.some((pattern) => pattern.test(error.message))) return DID_NOT_ANSWER;
  if (UNREACHABLE_MESSAGES.some((pattern) => pattern.test(error.message))) return CANNOT_BE_REACHED;
  // Node reports a refused dual-stack connect (localhost) as an AggregateError of the attempts.
  if (error instanceof AggregateError && error.errors.some((each) => unreachableDatabase(each) !== null)) return CANNOT_BE_REACHED;
  return null;
}

/**
 * Whether the error is pg giving up on a statement the server never answered: the connection may
 * still be waiting for that answer, so it must be closed, never used again.
 */
export function unansweredStatement(error: unknown): boolean {
  return error instanceof Error && NO_ANSWER_MESSAGES.some((pattern) => pattern.test(error.message));
}
