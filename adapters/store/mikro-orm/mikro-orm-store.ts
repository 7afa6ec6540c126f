import { MikroORM } from '@mikro-orm/core';
import type { AbstractSqlConnection, AbstractSqlDriver } from '@mikro-orm/knex';
import type { BlobStore, RecordSet, Store } from '../../../ports/store.js';
import type { FeedSet } from '../../../ports/feeds.js';
import type { TextIndex } from '../../../ports/text-index.js';
import type { NoVectors, VectorIndexes } from '../../../ports/vector-index.js';
import { LibsqlVectorIndexes } from './libsql-vector-index.js';
import { pgvectorIndexes } from './pgvector-vector-index.js';
import type { InstanceLiveness } from '../../../ports/liveness.js';
import type { Clock } from '../../../ports/clock.js';
import type { Logger } from '../../../ports/logger.js';
import type { ModuleImporter } from '../missing-driver.js';
import { blobStatements } from './blob-statements.js';
import { migrate } from './migrate.js';
import { MikroOrmBlobStore, type BlobStoreContext } from './mikro-orm-blob-store.js';
import { MikroOrmRecordSet, type RecordSetContext } from './mikro-orm-record-set.js';
import { DEFAULT_STATEMENT_TIMEOUT_MS, ormOptions, sqliteSetup, type MikroOrmTarget, type MikroOrmTuning } from './orm-options.js';
import { openPostgresqlBackend } from './postgresql-backend.js';
import { recordStatements } from './record-statements.js';
import { dialectFor } from './sql-dialect.js';
import type { KnexClientLike } from './sql-runner.js';
import { openSqliteBackend } from './sqlite-backend.js';
import { SqliteTextIndex } from './sqlite-text-index.js';
import { PostgresqlTextIndex } from './postgresql-text-index.js';
import type { StoreBackend } from './store-backend.js';
import { storeError } from './store-errors.js';
import { defined } from '../../../domain/defined.js';

export interface MikroOrmStoreOptions extends MikroOrmTuning {
  readonly target: MikroOrmTarget;
  readonly clock: Clock;
  readonly logger?: Logger;
  /** Apply pending migrations while opening. Default true; false for a schema managed elsewhere. */
  readonly migrate?: boolean;
  /** How the driver package is loaded; tests hand in one that fails. */
  readonly importDriver?: ModuleImporter;
}

/** What MikroOrmStore is built from. */
export interface MikroOrmStoreDeps {
  readonly kind: 'sqlite' | 'postgresql';
  readonly orm: MikroORM<AbstractSqlDriver>;
  readonly backend: StoreBackend;
  readonly recordContext: RecordSetContext;
  readonly blobContext: BlobStoreContext;
}

/**
 * The Store on SQLite (libsql) or PostgreSQL (pg) through MikroORM: MikroORM owns the connection
 * pool and the mappings; the store's own runner applies the checked-in migrations, and records
 * and blobs are read and written with single prepared statements (see record-statements.ts for
 * why each write is one statement).
 */
export class MikroOrmStore implements Store {
  private closing: Promise<void> | null = null;

  readonly kind: 'sqlite' | 'postgresql';
  /**
   * One transaction and one round trip for what `work` issues at once: PostgreSQL only. SQLite runs
   * each statement whole as it comes, on one connection, with nothing to save by grouping.
   */
  readonly together?: <T>(work: () => Promise<T>) => Promise<T>;

  constructor(private readonly deps: MikroOrmStoreDeps) {
    this.kind = deps.kind;
    const { runner } = deps.backend;
    if (runner.together) this.together = (work) => runner.together!(work);
  }

  /** Connects, migrates unless told not to, and answers the open store. */
  static async open(options: MikroOrmStoreOptions): Promise<MikroOrmStore> {
    const { target, clock, logger } = options;
    // The constructor, not MikroORM.init: init would merge MIKRO_ORM_* variables from the host's
    // environment (and its .env file) over this configuration.
    const orm = new MikroORM<AbstractSqlDriver>(await ormOptions(target, options, logger, options.importDriver));
    let backend: StoreBackend | null = null;
    try {
      await orm.discoverEntities();
      await orm.connect();
      const client = (orm.em.getConnection() as AbstractSqlConnection).getKnex().client as KnexClientLike;
      backend =
        target.engine === 'sqlite'
          ? await openSqliteBackend(client, target.file, sqliteSetup(options), clock)
          : openPostgresqlBackend(client, target.url, {
              clock,
              ...defined({ logger }),
              statementTimeoutMs: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
            });
      if (options.migrate !== false) {
        const applied = await migrate(backend.ledger, backend.migrations);
        if (applied.length > 0) logger?.info('store migrations applied', { engine: target.engine, migrations: applied });
      }
    } catch (error) {
      await backend?.close().catch(() => undefined);
      await orm.close(true).catch(() => undefined);
      throw storeError(error);
    }
    const dialect = dialectFor(target.engine);
    const runner = backend.runner;
    return new MikroOrmStore({
      kind: target.engine,
      orm,
      backend,
      recordContext: { runner, dialect, clock, statements: recordStatements(dialect) },
      blobContext: { runner, dialect, clock, statements: blobStatements(dialect) },
    });
  }

  records<T>(name: string): RecordSet<T> {
    return new MikroOrmRecordSet<T>(name, this.deps.recordContext);
  }

  blobs(namespace: string): BlobStore {
    return new MikroOrmBlobStore(namespace, this.deps.blobContext);
  }

  feeds<T>(namespace: string): FeedSet<T> {
    return this.deps.backend.feeds<T>(namespace);
  }

  /** FTS5 on SQLite, tsvector on PostgreSQL (the text-index migrations). */
  textIndex(collection: string): TextIndex {
    const runner = this.deps.backend.runner;
    return this.kind === 'sqlite' ? new SqliteTextIndex(collection, runner) : new PostgresqlTextIndex(collection, runner);
  }

  /** libsql's vector index on SQLite; pgvector on PostgreSQL when the extension can be made (else why not). */
  vectors(): Promise<VectorIndexes | NoVectors> {
    const runner = this.deps.backend.runner;
    return this.kind === 'sqlite' ? Promise.resolve(new LibsqlVectorIndexes(runner)) : pgvectorIndexes(runner);
  }

  /** PostgreSQL's session advisory lock per instance; null on SQLite (one process: leases suffice). */
  liveness(): InstanceLiveness | null {
    return this.deps.backend.liveness?.() ?? null;
  }

  async ping(): Promise<void> {
    await this.deps.backend.runner.rows({ sql: 'select 1', params: [] });
  }

  /** Idempotent; operations after it reject with Unavailable. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.deps.backend.close();
      await this.deps.orm.close(true);
    })();
    return this.closing;
  }

  /** MikroORM itself, for the store's own tests and tools (schema checks); not for callers. */
  get mikroOrm(): MikroORM<AbstractSqlDriver> {
    return this.deps.orm;
  }
}
