import pg from 'pg';
import type { SqlStatement } from '../../adapters/store/mikro-orm/sql-statement.js';
import type { RawDriver } from './raw-driver.js';

/** pg on one dedicated client, every statement named (prepared once). */
export async function openRawPostgresql(url: string): Promise<RawDriver> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const names = new Map<string, string>();
  const nameOf = (sql: string) => {
    let name = names.get(sql);
    if (!name) names.set(sql, (name = `raw_${names.size + 1}`));
    return name;
  };
  const rows = async ({ sql, params }: SqlStatement): Promise<unknown[]> =>
    (await client.query({ name: nameOf(sql), text: sql, values: params as unknown[] })).rows;

  return {
    name: 'raw pg (1 client, named)',
    rows,
    async batch(statements) {
      await client.query('begin');
      for (const each of statements) await rows(each);
      await client.query('commit');
    },
    close: () => client.end(),
  };
}
