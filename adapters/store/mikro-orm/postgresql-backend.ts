import type { ClientBase } from 'pg';
import type { Clock } from '../../../ports/clock.js';
import type { Logger } from '../../../ports/logger.js';
import { POSTGRESQL_MIGRATIONS } from './migrations/postgresql/migration-list.js';
import { urlSchema } from './orm-options.js';
import { postgresqlMigrationLedger } from './postgresql-migration-ledger.js';
import { PostgresqlFeeds } from './postgresql-feeds.js';
import { PostgresqlLiveness } from './postgresql-liveness.js';
import { PostgresqlRunner } from './postgresql-runner.js';
import { PostgresqlStatistics } from './postgresql-statistics.js';
import { driverPool, type KnexClientLike } from './sql-runner.js';
import type { StoreBackend } from './store-backend.js';
import { defined } from '../../../domain/defined.js';

/** What the PostgreSQL backend needs besides MikroORM's knex client and the URL. */
export interface PostgresqlBackendContext {
  readonly clock: Clock;
  readonly logger?: Logger;
  /** The client's deadline for one statement: how often the feed listener checks that the server still answers. */
  readonly statementTimeoutMs: number;
}

/**
 * PostgreSQL through pg: statements and migrations borrow connections from MikroORM's pool; feeds
 * listen on one connection of their own, opened when first needed, and the instance's liveness
 * mark is held on another. The store's tables are analyzed as they grow (PostgresqlStatistics).
 */
export function openPostgresqlBackend(client: KnexClientLike, url: string, context: PostgresqlBackendContext): StoreBackend {
  const pool = driverPool<ClientBase>(client);
  const runner = new PostgresqlRunner(pool);
  const { clock, logger, statementTimeoutMs } = context;
  const feeds = new PostgresqlFeeds(runner, client, clock, { ...defined({ logger }), checkEveryMs: statementTimeoutMs });
  const liveness = new PostgresqlLiveness(client, runner, statementTimeoutMs, logger);
  const statistics = new PostgresqlStatistics(runner, logger);
  statistics.start();
  return {
    runner,
    ledger: postgresqlMigrationLedger(pool, urlSchema(url)),
    migrations: POSTGRESQL_MIGRATIONS,
    feeds: (namespace) => feeds.feeds(namespace),
    liveness: () => liveness,
    async close() {
      statistics.stop();
      await liveness.release();
      await feeds.close();
      await runner.close();
    },
  };
}
