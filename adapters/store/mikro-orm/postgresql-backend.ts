import type { ClientBase } from 'pg';
import { POSTGRESQL_MIGRATIONS } from './migrations/postgresql/migration-list.js';
import { urlSchema } from './orm-options.js';
import { postgresqlMigrationLedger } from './postgresql-migration-ledger.js';
import { PostgresqlRunner } from './postgresql-runner.js';
import { driverPool, type KnexClientLike } from './sql-runner.js';
import type { StoreBackend } from './store-backend.js';

/** PostgreSQL through pg: statements and migrations borrow connections from MikroORM's pool. */
export function openPostgresqlBackend(client: KnexClientLike, url: string): StoreBackend {
  const pool = driverPool<ClientBase>(client);
  const runner = new PostgresqlRunner(pool);
  return {
    runner,
    ledger: postgresqlMigrationLedger(pool, urlSchema(url)),
    migrations: POSTGRESQL_MIGRATIONS,
    close: () => runner.close(),
  };
}
