import type { SqlMigration } from '../sql-migration.js';
import { POSTGRESQL_FEED_ENTRIES } from './feed-entries.js';
import { POSTGRESQL_INITIAL_SCHEMA } from './initial-schema.js';
import { POSTGRESQL_TEXT_INDEX } from './text-index.js';

/** Every PostgreSQL migration in order. Names are stored in porter_migrations: never rename one. */
export const POSTGRESQL_MIGRATIONS: readonly SqlMigration[] = [POSTGRESQL_INITIAL_SCHEMA, POSTGRESQL_FEED_ENTRIES, POSTGRESQL_TEXT_INDEX];
