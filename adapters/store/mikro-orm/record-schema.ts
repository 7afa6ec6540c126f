import { BigIntType, BlobType, EntitySchema, JsonType } from '@mikro-orm/core';

/**
 * The tables of the MikroORM store, as MikroORM mappings. They are the mapping of record for the
 * schema: the checked-in migrations create exactly these tables (a test compares them), while the
 * hot paths read and write them with plain SQL (see record-statements.ts).
 */

/** One stored record. Times are epoch milliseconds so ordering and cursors are plain integers. */
export interface RecordRow {
  collection: string;
  id: string;
  data: unknown;
  /** The record's refs as JSON; porter_record_refs mirrors it (kept in step by triggers). */
  refs: Record<string, string>;
  revision: number;
  createdAt: number;
  updatedAt: number;
}

/** One ref of one record: the index a list filtered by that ref walks, newest first. */
export interface RecordRefRow {
  record: RecordRow;
  name: string;
  value: string;
  /** The record's createdAt, copied so the list order comes straight from this table's index. */
  createdAt: number;
}

export interface BlobRow {
  namespace: string;
  key: string;
  contentType: string;
  size: number;
  data: Buffer;
  updatedAt: number;
}

const RECORDS_TABLE = 'porter_records';
const RECORD_REFS_TABLE = 'porter_record_refs';
const BLOBS_TABLE = 'porter_blobs';
/** The bookkeeping of applied migrations (the table MikroORM's Migrator kept; the store's migration runner keeps it now). */
export const MIGRATIONS_TABLE = 'porter_migrations';

/** A time column: epoch milliseconds in a bigint, read back as a number. */
export const epochMillis = () => ({ type: new BigIntType('number'), columnType: 'bigint' }) as const;

type TextKeyColumn = { type: 'string'; columnType: 'text'; primary: true };

/** Text columns that together make a table's primary key, in the key's order. */
export function textKey<K extends string>(...names: K[]): Record<K, TextKeyColumn> {
  const column: TextKeyColumn = { type: 'string', columnType: 'text', primary: true };
  return Object.fromEntries(names.map((name) => [name, { ...column }])) as Record<K, TextKeyColumn>;
}

export const RecordRowSchema = new EntitySchema<RecordRow>({
  name: 'PorterRecord',
  tableName: RECORDS_TABLE,
  properties: {
    ...textKey('collection', 'id'),
    // json, not jsonb, on PostgreSQL: data is only ever stored and handed back, never queried
    // into, and json keeps it exactly (key order, and \u0000, which jsonb refuses).
    data: { type: JsonType, columnType: 'json' },
    // jsonb for refs: the trigger compares old and new refs, and json has no equality.
    refs: { type: JsonType },
    revision: { type: 'integer' },
    createdAt: { ...epochMillis(), fieldName: 'created_at' },
    updatedAt: { ...epochMillis(), fieldName: 'updated_at' },
  },
  // Newest-first pages of one collection: (collection, created_at desc, id desc) read backwards.
  indexes: [{ name: 'porter_records_listing', properties: ['collection', 'createdAt', 'id'] }],
});

export const RecordRefRowSchema = new EntitySchema<RecordRefRow>({
  name: 'PorterRecordRef',
  tableName: RECORD_REFS_TABLE,
  properties: {
    record: {
      kind: 'm:1',
      entity: () => RecordRowSchema,
      primary: true,
      joinColumns: ['collection', 'record_id'],
      deleteRule: 'cascade',
      updateRule: 'cascade',
      // The primary key (collection, record_id, name) already serves lookups by record.
      index: false,
    },
    ...textKey('name'),
    value: { type: 'string', columnType: 'text' },
    createdAt: { ...epochMillis(), fieldName: 'created_at' },
  },
  // A list filtered by one ref reads this index in order and stops after one page.
  indexes: [
    {
      name: 'porter_record_refs_lookup',
      expression: `create index "porter_record_refs_lookup" on "${RECORD_REFS_TABLE}" ("collection", "name", "value", "created_at", "record_id")`,
    },
  ],
});

export const BlobRowSchema = new EntitySchema<BlobRow>({
  name: 'PorterBlob',
  tableName: BLOBS_TABLE,
  properties: {
    ...textKey('namespace', 'key'),
    contentType: { type: 'string', columnType: 'text', fieldName: 'content_type' },
    size: { type: 'integer' },
    data: { type: BlobType },
    updatedAt: { ...epochMillis(), fieldName: 'updated_at' },
  },
});

/** Every mapping the store registers with MikroORM. */
export const STORE_ENTITIES = [RecordRowSchema, RecordRefRowSchema, BlobRowSchema];
