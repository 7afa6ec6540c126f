import type { ClientBase, QueryConfig, QueryResultRow } from 'pg';
import { MIGRATIONS_TABLE } from './record-schema.js';
import type { LedgerTransaction, MigrationLedger } from './migrate.js';
import { onBorrowedConnection, type DriverPool } from './sql-runner.js';
import { defined } from '../../../domain/defined.js';

/**
 * A fixed key for pg_advisory_xact_lock, the same in every Porter instance and version ("porter"
 * in ASCII), so instances booting together against one PostgreSQL database migrate one after
 * another.
 */
export const MIGRATION_LOCK_KEY = 0x706f72746572;

/**
 * A client deadline long enough to be none (setTimeout's longest): the store's connections set
 * one for every statement, and pg has no way to lift it for one statement but a longer one.
 */
const NO_CLIENT_DEADLINE_MS = 2_147_483_647;

/** The bookkeeping table exactly as MikroORM's Migrator created it on PostgreSQL. */
const CREATE_LEDGER = `create table "${MIGRATIONS_TABLE}" ("id" serial primary key, "name" varchar(255) null, "executed_at" timestamptz null default CURRENT_TIMESTAMP)`;

/**
 * The migration lock is a transaction-scoped advisory lock: it goes with the transaction, whatever
 * happens to the connection. Table names are unqualified, so they resolve through the search path:
 * the `?schema=` schema when the URL names one (created under the lock when missing), else the
 * server's default path, which also finds the bookkeeping table MikroORM kept in `public`.
 */
export function postgresqlMigrationLedger(pool: DriverPool<ClientBase>, schema: string | null): MigrationLedger {
  return {
    inLockedTransaction(step) {
      return onBorrowedConnection(pool, async (connection) => {
        await connection.query('begin');
        try {
          // A migration may take longer than a request's statement timeout, and so may waiting for
          // another instance's: the server's timeout and the client's deadline are both lifted.
          await connection.query('set local statement_timeout = 0');
          const client = withoutDeadline(connection);
          await client.query(`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
          await ensureLedger(client, schema);
          const result = await step(ledgerTransaction(client));
          await client.query('commit');
          return result;
        } catch (error) {
          await connection.query('rollback').catch(() => undefined);
          throw error;
        }
      });
    },
  };
}

/** What the ledger sends on a connection: its statements, with no client deadline. */
interface LedgerClient {
  query<R extends object = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
}

function withoutDeadline(connection: ClientBase): LedgerClient {
  return {
    query: <R extends object>(text: string, values?: unknown[]) => {
      // pg reads a statement's own query_timeout; its types do not list it.
      const statement: QueryConfig & { query_timeout: number } = {
        text,
        ...defined({ values }),
        query_timeout: NO_CLIENT_DEADLINE_MS,
      };
      return connection.query<R & QueryResultRow>(statement);
    },
  };
}

async function ensureLedger(client: LedgerClient, schema: string | null): Promise<void> {
  // Looked up first: CREATE SCHEMA IF NOT EXISTS would still need the right to create schemas.
  if (schema && (await client.query('select 1 from pg_namespace where nspname = $1', [schema])).rowCount === 0) {
    await client.query(`create schema ${quoteIdentifier(schema)}`);
  }
  const { rows } = await client.query<{ present: boolean }>(`select to_regclass('${MIGRATIONS_TABLE}') is not null as present`);
  if (!rows[0]?.present) await client.query(CREATE_LEDGER);
}

function ledgerTransaction(client: LedgerClient): LedgerTransaction {
  return {
    applied: async () =>
      new Set((await client.query<{ name: string }>(`select name from ${MIGRATIONS_TABLE}`)).rows.map((row) => row.name)),
    execute: async (sql) => void (await client.query(sql)),
    record: async (name) => void (await client.query(`insert into ${MIGRATIONS_TABLE} (name) values ($1)`, [name])),
  };
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
