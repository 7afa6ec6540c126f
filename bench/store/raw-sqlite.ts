import sqlite3 from 'sqlite3';
import type { SqlStatement } from '../../adapters/store/mikro-orm/sql-statement.js';
import type { RawDriver } from './raw-driver.js';

/** sqlite3 on its own connection to the store's file, set up as the store sets up its own. */
export async function openRawSqlite(file: string): Promise<RawDriver> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened = new sqlite3.Database(file, (error) => (error ? reject(error) : resolve(opened)));
  });
  db.configure('busyTimeout', 5_000);
  await new Promise<void>((resolve, reject) => db.exec('pragma journal_mode = wal; pragma synchronous = normal; pragma foreign_keys = on;', (error) => (error ? reject(error) : resolve())));
  const prepared = new Map<string, sqlite3.Statement>();

  const statement = (sql: string): Promise<sqlite3.Statement> => {
    const cached = prepared.get(sql);
    if (cached) return Promise.resolve(cached);
    return new Promise((resolve, reject) => {
      const fresh: sqlite3.Statement = db.prepare(sql, (error: Error | null) => {
        if (error) return reject(error);
        prepared.set(sql, fresh);
        resolve(fresh);
      });
    });
  };
  const rows = async ({ sql, params }: SqlStatement): Promise<unknown[]> => {
    const prepared = await statement(sql);
    return new Promise((resolve, reject) => prepared.all(params as unknown[], (error: Error | null, found: unknown[]) => (error ? reject(error) : resolve(found))));
  };
  const exec = (sql: string) => new Promise<void>((resolve, reject) => db.exec(sql, (error) => (error ? reject(error) : resolve())));

  return {
    name: 'raw sqlite3 (prepared)',
    rows,
    async batch(statements) {
      await exec('begin immediate');
      for (const each of statements) await rows(each);
      await exec('commit');
    },
    async close() {
      await Promise.all([...prepared.values()].map((each) => new Promise<void>((resolve) => each.finalize(() => resolve()))));
      await new Promise<void>((resolve, reject) => db.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
