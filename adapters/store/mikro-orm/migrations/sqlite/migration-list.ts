import type { MigrationObject } from '@mikro-orm/core';
import { SqliteInitialSchema } from './initial-schema.js';

/** Every SQLite migration in order. Names are stored in porter_migrations: never rename one. */
export const SQLITE_MIGRATIONS: MigrationObject[] = [{ name: '0001-initial-schema', class: SqliteInitialSchema }];
