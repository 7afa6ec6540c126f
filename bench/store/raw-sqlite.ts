import Database from 'libsql';
import type { SqlStatement } from '../../adapters/store/mikro-orm/sql-statement.js';
import type { RawDriver } from './raw-driver.js';

/** libsql on its own connection to the store's file, set up as the store sets up its own. */
export async function openRawSqlite(file: string): Promise<RawDriver> {
  const db = new Database(file);
  db.exec('pragma busy_timeout = 5000; pragma journal_mode = wal; pragma synchronous = normal; pragma foreign_keys = on;');
  const prepared = new Map<string, Database.Statement>();

  const statement = (sql: string): Database.Statement => {
    let cached = prepared.get(sql);
    if (!cached) prepared.set(sql, (cached = db.prepare(sql)));
    return cached;
  };
  const rows = async ({ sql, params }: SqlStatement): Promise<unknown[]> => statement(sql).all(params as unknown[]);

  return {
    name: 'raw libsql (prepared)',
    rows,
    async batch(statements) {
      db.exec('begin immediate');
      for (const each of statements) await rows(each);
      db.exec('commit');
    },
    async close() {
      prepared.clear();
      db.close();
    },
  };
}
