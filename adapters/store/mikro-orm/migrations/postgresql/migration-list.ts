import type { MigrationObject } from '@mikro-orm/core';
import { PostgresqlInitialSchema } from './initial-schema.js';

/** Every PostgreSQL migration in order. Names are stored in porter_migrations: never rename one. */
export const POSTGRESQL_MIGRATIONS: MigrationObject[] = [{ name: '0001-initial-schema', class: PostgresqlInitialSchema }];
