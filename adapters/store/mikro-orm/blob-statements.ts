import type { SqlDialect } from './sql-dialect.js';
import type { SqlStatement } from './sql-statement.js';

/** The columns a blob read returns; `data` only when the bytes were asked for. */
export interface BlobColumns {
  readonly key: string;
  readonly content_type: string;
  readonly size: number;
  readonly updated_at: unknown;
  /** pg hands back a Buffer, libsql (rows read with `all()`) an ArrayBuffer of the blob alone. */
  readonly data?: Uint8Array | ArrayBuffer;
}

/** The SQL of every blob operation, shared by SQLite and PostgreSQL. */
export interface BlobStatements {
  get(namespace: string, key: string): SqlStatement;
  put(namespace: string, key: string, bytes: Uint8Array, contentType: string, now: number): SqlStatement;
  delete(namespace: string, key: string): SqlStatement;
  /** Every blob of the namespace without its bytes, in key order. */
  list(namespace: string): SqlStatement;
}

export function blobStatements(dialect: SqlDialect): BlobStatements {
  const sql = (text: string) => dialect.placeholders(text);
  const get = sql('select "key", content_type, size, data, updated_at from porter_blobs where namespace = ? and "key" = ?');
  const put = sql(
    'insert into porter_blobs (namespace, "key", content_type, size, data, updated_at) values (?, ?, ?, ?, ?, ?) ' +
      'on conflict (namespace, "key") do update set content_type = excluded.content_type, size = excluded.size, ' +
      'data = excluded.data, updated_at = excluded.updated_at',
  );
  const remove = sql('delete from porter_blobs where namespace = ? and "key" = ?');
  const list = sql('select "key", content_type, size, updated_at from porter_blobs where namespace = ? order by "key"');
  return {
    get: (namespace, key) => ({ sql: get, params: [namespace, key] }),
    put: (namespace, key, bytes, contentType, now) => ({
      sql: put,
      // Both drivers bind a Buffer as a blob/bytea; a plain Uint8Array is not one to them.
      params: [namespace, key, contentType, bytes.byteLength, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), now],
    }),
    delete: (namespace, key) => ({ sql: remove, params: [namespace, key] }),
    list: (namespace) => ({ sql: list, params: [namespace] }),
  };
}
