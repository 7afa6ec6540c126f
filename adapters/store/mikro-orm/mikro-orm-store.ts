import { MikroORM } from '@mikro-orm/core';
import type { AbstractSqlConnection, AbstractSqlDriver } from '@mikro-orm/knex';
import type { ClientBase } from 'pg';
import type { Database } from 'sqlite3';
import type { BlobStore, RecordSet, Store } from '../../../ports/store.js';
import type { Clock } from '../../../ports/clock.js';
import type { Logger } from '../../../ports/logger.js';
import { blobStatements } from './blob-statements.js';
import { migrate } from './migrate.js';
import { MikroOrmBlobStore, type BlobStoreContext } from './mikro-orm-blob-store.js';
import { MikroOrmRecordSet, type RecordSetContext } from './mikro-orm-record-set.js';
import { ormOptions, type MikroOrmTarget, type MikroOrmTuning } from './orm-options.js';
import { PostgresqlRunner } from './postgresql-runner.js';
import { recordStatements } from './record-statements.js';
import { dialectFor } from './sql-dialect.js';
import { driverPool, type KnexClientLike, type SqlRunner } from './sql-runner.js';
import { SqliteRunner } from './sqlite-runner.js';
import { storeError } from './store-errors.js';

export interface MikroOrmStoreOptions extends MikroOrmTuning {
  readonly target: MikroOrmTarget;
  readonly clock: Clock;
  readonly logger?: Logger;
  /** Apply pending migrations while opening. Default true; false for a schema managed elsewhere. */
  readonly migrate?: boolean;
}

/**
 * The Store on SQLite or PostgreSQL through MikroORM: MikroORM owns the connections, the mappings
 * and the migrations; records and blobs are read and written with single prepared statements on
 * its pool (see record-statements.ts for why each write is one statement).
 */
export class MikroOrmStore implements Store {
  private closing: Promise<void> | null = null;

  private constructor(
    readonly kind: 'sqlite' | 'postgresql',
    private readonly orm: MikroORM<AbstractSqlDriver>,
    private readonly runner: SqlRunner,
    private readonly recordContext: RecordSetContext,
    private readonly blobContext: BlobStoreContext,
  ) {}

  /** Connects, migrates unless told not to, and answers the open store. */
  static async open(options: MikroOrmStoreOptions): Promise<MikroOrmStore> {
    const { target, clock, logger } = options;
    // The constructor, not MikroORM.init: init would merge MIKRO_ORM_* variables from the host's
    // environment (and its .env file) over this configuration.
    const orm = new MikroORM<AbstractSqlDriver>(ormOptions(target, options, logger));
    try {
      await orm.discoverEntities();
      await orm.connect();
      if (options.migrate !== false) {
        const applied = await migrate(orm, target.engine);
        if (applied.length > 0) logger?.info('store migrations applied', { engine: target.engine, migrations: applied });
      }
    } catch (error) {
      await orm.close(true).catch(() => undefined);
      throw storeError(error);
    }
    const dialect = dialectFor(target.engine);
    const client = (orm.em.getConnection() as AbstractSqlConnection).getKnex().client as KnexClientLike;
    const runner =
      target.engine === 'sqlite' ? new SqliteRunner(driverPool<Database>(client)) : new PostgresqlRunner(driverPool<ClientBase>(client));
    return new MikroOrmStore(
      target.engine,
      orm,
      runner,
      { runner, dialect, clock, statements: recordStatements(dialect) },
      { runner, dialect, clock, statements: blobStatements(dialect) },
    );
  }

  records<T>(name: string): RecordSet<T> {
    return new MikroOrmRecordSet<T>(name, this.recordContext);
  }

  blobs(namespace: string): BlobStore {
    return new MikroOrmBlobStore(namespace, this.blobContext);
  }

  async ping(): Promise<void> {
    await this.runner.rows({ sql: 'select 1', params: [] });
  }

  /** Idempotent; operations after it reject with Unavailable. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.runner.close();
      await this.orm.close(true);
    })();
    return this.closing;
  }

  /** MikroORM itself, for the store's own tests and tools (schema checks); not for callers. */
  get mikroOrm(): MikroORM<AbstractSqlDriver> {
    return this.orm;
  }
}
