import { dirname } from 'node:path';
import type { StoreLocation } from './database-url.js';
import { defined } from '../../domain/defined.js';

/** Node's codes for a database that could not be reached at all, and what each means. */
const NETWORK_CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'ECONNREFUSED: nothing listens there',
  ECONNRESET: 'ECONNRESET: the connection was reset',
  ETIMEDOUT: 'ETIMEDOUT: no answer',
  EHOSTUNREACH: 'EHOSTUNREACH: no route to the host',
  ENETUNREACH: 'ENETUNREACH: no route to the network',
  ENOTFOUND: 'ENOTFOUND: the host name does not resolve',
  EAI_AGAIN: 'EAI_AGAIN: the host name could not be resolved right now',
};

/** Why a folder for an SQLite file could not be made. */
const FOLDER_CODES: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'a read-only file system',
  EEXIST: 'a file of that name is in the way',
  ENOTDIR: 'a part of the path is a file, not a folder',
  ENOSPC: 'no space left',
};

/** PostgreSQL's SQLSTATEs for a connection the server refused, and how to say so. */
const SERVER_REFUSALS: Readonly<Record<string, 'authentication' | 'database'>> = {
  '28P01': 'authentication',
  '28000': 'authentication',
  '3D000': 'database',
};

/**
 * Why a store could not be opened, in words an operator can act on: the engine, the host and port
 * (or the file) tried, and the driver's reason. Never the URL itself or its password. Used at boot,
 * where `createPorter` names the option the URL came from.
 */
export function describeOpenFailure(location: Exclude<StoreLocation, { engine: 'memory' }>, error: unknown): string {
  const failure = rootCause(error);
  if (location.engine === 'sqlite') return sqliteFailure(location.file, failure);
  return postgresFailure(location.url, failure);
}

/** The store wraps an unreachable database in Unavailable; the driver's error is its cause. */
function rootCause(error: unknown): DriverError {
  let current = error as DriverError;
  for (let depth = 0; depth < 5 && current?.cause && !current.code?.match(/^(E[A-Z_]+|[0-9A-Z]{5}|SQLITE_\w+)$/); depth++)
    current = current.cause as DriverError;
  return current ?? {};
}

interface DriverError {
  readonly code?: string;
  readonly message?: string;
  readonly name?: string;
  readonly syscall?: string;
  readonly path?: string;
  readonly errors?: ReadonlyArray<DriverError>;
  readonly cause?: unknown;
}

function postgresFailure(url: string, error: DriverError): string {
  const { host, port, user, database } = postgresTarget(url);
  const at = `PostgreSQL at ${host}:${port}`;
  // A dual-stack `localhost` refuses once per address: the first attempt speaks for them all.
  const code = error.code ?? error.errors?.[0]?.code;
  if (code && NETWORK_CODES[code]) return `could not connect to ${at} (${NETWORK_CODES[code]})`;
  if (error.name === 'KnexTimeoutError' || /timeout acquiring a connection|connection timeout/i.test(error.message ?? ''))
    return `could not connect to ${at} (timed out waiting for a connection)`;
  const refusal = code ? SERVER_REFUSALS[code] : undefined;
  const said = error.message ? `${code}: ${scrub(error.message)}` : code;
  if (refusal === 'authentication') {
    const who = user ?? /user "([^"]+)"/.exec(error.message ?? '')?.[1];
    return `authentication failed${who ? ` for user "${who}"` : ''} on ${at} (${said})`;
  }
  if (refusal === 'database')
    return `the database${database ? ` "${database}"` : ''} does not exist on ${at} (${said}); create it first: Porter creates tables, not databases`;
  return `could not open ${at} (${said ?? scrub(error.message ?? 'unknown error')})`;
}

function sqliteFailure(file: string, error: DriverError): string {
  if (error.syscall === 'mkdir') {
    const why = error.code ? FOLDER_CODES[error.code] : undefined;
    return `could not create the folder ${error.path ?? dirname(file)} for the SQLite database ${file} (${error.code}${why ? `: ${why}` : ''})`;
  }
  const code =
    error.code || (/: 14\)?$/.test(error.message ?? '') || /unable to open/i.test(error.message ?? '') ? 'SQLITE_CANTOPEN' : undefined);
  if (code === 'SQLITE_CANTOPEN')
    return `could not open the SQLite database ${file} (SQLITE_CANTOPEN: the file or its folder is not writable, or the path is a folder)`;
  return `could not open the SQLite database ${file} (${code ? `${code}: ` : ''}${scrub(error.message ?? 'unknown error')})`;
}

/** What the URL names, read without ever keeping its password. */
function postgresTarget(url: string): { host: string; port: string; user?: string; database?: string } {
  try {
    const parsed = new URL(url);
    // libpq's `?host=` (a socket folder, or a host) wins over the authority, as pg reads it.
    const host = parsed.searchParams.get('host') || parsed.hostname || 'localhost';
    const port = parsed.searchParams.get('port') || parsed.port || '5432';
    const user = parsed.username ? decodeURIComponent(parsed.username) : undefined;
    const database = parsed.pathname.length > 1 ? decodeURIComponent(parsed.pathname.slice(1)) : undefined;
    return { host, port, ...defined({ user: user || undefined, database: database || undefined }) };
  } catch {
    return { host: '(unparsable host)', port: '?' };
  }
}

/** Driver messages rarely quote a connection string, but one that does must not leak its password. */
function scrub(message: string): string {
  const line = message.split('\n')[0]!.trim();
  return line.replace(/(\w[\w+.-]*:\/\/)[^\s@/]*@/g, '$1***@').replace(/(password=)\S*/gi, '$1***');
}
