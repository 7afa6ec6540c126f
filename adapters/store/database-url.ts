import { isAbsolute, resolve } from 'node:path';
import type { MikroOrmTarget } from './mikro-orm/orm-options.js';

/** Where a store lives, as read from a PORTER_DATABASE_URL. */
export type StoreLocation = { readonly engine: 'memory' } | MikroOrmTarget;

export const ACCEPTED_DATABASE_URLS = ['sqlite:<file path>', 'sqlite::memory:', 'postgres://…', 'postgresql://…', 'memory:'] as const;

/**
 * Reads the forms PORTER_DATABASE_URL takes. A relative SQLite path is relative to `cwd`.
 * Throws for anything else, naming the variable and the accepted forms but never echoing the value
 * (it may hold a password).
 */
export function parseDatabaseUrl(url: string, cwd: string = process.cwd()): StoreLocation {
  const value = url.trim();
  if (value === 'memory:') return { engine: 'memory' };
  if (value === 'sqlite::memory:') return { engine: 'sqlite', file: ':memory:' };
  if (value.startsWith('sqlite:') && value.length > 'sqlite:'.length) {
    const path = value.slice('sqlite:'.length);
    return { engine: 'sqlite', file: isAbsolute(path) ? path : resolve(cwd, path) };
  }
  if (/^postgres(ql)?:\/\/[^/]/i.test(value)) return { engine: 'postgresql', url: value };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1];
  throw new Error(
    `PORTER_DATABASE_URL is not a database URL Porter understands${scheme ? ` (scheme "${scheme}:")` : ''}; ` +
      `use one of: ${ACCEPTED_DATABASE_URLS.join(', ')}`,
  );
}
