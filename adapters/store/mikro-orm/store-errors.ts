import { Unavailable } from '../../../domain/errors.js';
import { unreachableDatabase } from '../../shared/unreachable-database.js';

/**
 * SQLite primary result codes (libsql reports extended ones, e.g. SQLITE_BUSY_SNAPSHOT, and the
 * primary code is their prefix) that say the file cannot be used right now rather than that the
 * statement is wrong: locked by another process past the busy timeout, not openable, failing I/O,
 * a full disk, a read-only file or mount, a damaged or foreign file.
 */
const UNUSABLE_SQLITE_CODES = new Set([
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_CANTOPEN',
  'SQLITE_IOERR',
  'SQLITE_FULL',
  'SQLITE_READONLY',
  'SQLITE_CORRUPT',
  'SQLITE_NOTADB',
]);

const UNREACHABLE_MESSAGES = [
  /timeout acquiring a connection/i,
  /connection timeout/i,
  // libsql: a file it cannot open (its error has no SQLite code), and a connection already closed.
  /unable to open connection to local database/i,
  /database connection is not open/i,
];

/** Why the database cannot serve the store right now, or null when the error is the statement's own. */
function unavailableBecause(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && UNUSABLE_SQLITE_CODES.has(primarySqliteCode(code))) return 'The store database cannot be used right now';
  const unreachable = unreachableDatabase(error);
  if (unreachable !== null) return `The store database ${unreachable}`;
  if (error.name === 'KnexTimeoutError' || UNREACHABLE_MESSAGES.some((pattern) => pattern.test(error.message)))
    return 'The store database cannot be reached';
  return null;
}

/** The error to hand to a caller: Unavailable when the database cannot serve, else the error itself. */
export function storeError(error: unknown): unknown {
  const because = unavailableBecause(error);
  if (because === null) return error;
  const unavailable = new Unavailable(because);
  Object.defineProperty(unavailable, 'cause', { value: error, enumerable: false });
  return unavailable;
}

/** `SQLITE_BUSY` for `SQLITE_BUSY_SNAPSHOT`; other codes unchanged. */
function primarySqliteCode(code: string): string {
  return /^SQLITE_[A-Z]+/.exec(code)?.[0] ?? code;
}
