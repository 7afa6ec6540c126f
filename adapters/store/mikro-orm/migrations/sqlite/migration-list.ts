import type { SqlMigration } from '../sql-migration.js';
import { SQLITE_INITIAL_SCHEMA } from './initial-schema.js';
import { SQLITE_TEXT_INDEX } from './text-index.js';

/** Every SQLite migration in order. Names are stored in porter_migrations: never rename one. */
export const SQLITE_MIGRATIONS: readonly SqlMigration[] = [SQLITE_INITIAL_SCHEMA, SQLITE_TEXT_INDEX];
