import type { SqlMigration } from '../sql-migration.js';

/**
 * The first PostgreSQL schema: records, their refs and blobs (see record-schema.ts for the mapping).
 * Keys use the "C" collation so ordering (and so cursors) is by code point on every server, as on
 * SQLite, whatever the database's locale. Data is json, kept as sent (jsonb would reorder keys and
 * refuse \u0000); refs are jsonb, which the trigger compares. The trigger keeps porter_record_refs
 * in step with porter_records.refs, so every write of a record, refs included, is one statement.
 */
export const POSTGRESQL_INITIAL_SCHEMA: SqlMigration = {
  name: '0001-initial-schema',
  statements: [
    'create table "porter_records" ("collection" text collate "C" not null, "id" text collate "C" not null, "data" json not null, ' +
      '"refs" jsonb not null, "revision" int not null, "created_at" bigint not null, "updated_at" bigint not null, ' +
      'constraint "porter_records_pkey" primary key ("collection", "id"));',
    'create index "porter_records_listing" on "porter_records" ("collection", "created_at", "id");',

    'create table "porter_record_refs" ("collection" text collate "C" not null, "record_id" text collate "C" not null, ' +
      '"name" text collate "C" not null, "value" text collate "C" not null, "created_at" bigint not null, ' +
      'constraint "porter_record_refs_pkey" primary key ("collection", "record_id", "name"));',
    'create index "porter_record_refs_lookup" on "porter_record_refs" ("collection", "name", "value", "created_at", "record_id");',
    'alter table "porter_record_refs" add constraint "porter_record_refs_collection_record_id_foreign" foreign key ("collection", "record_id") ' +
      'references "porter_records" ("collection", "id") on update cascade on delete cascade;',
    'create function "porter_record_refs_sync"() returns trigger language plpgsql as $$ begin ' +
      "if tg_op = 'UPDATE' then " +
      'delete from "porter_record_refs" where "collection" = old."collection" and "record_id" = old."id"; ' +
      'end if; ' +
      'insert into "porter_record_refs" ("collection", "record_id", "name", "value", "created_at") ' +
      'select new."collection", new."id", r.key, r.value, new."created_at" from jsonb_each_text(new."refs") as r(key, value); ' +
      'return null; ' +
      'end $$;',
    'create trigger "porter_records_refs_inserted" after insert on "porter_records" ' +
      'for each row execute function "porter_record_refs_sync"();',
    'create trigger "porter_records_refs_updated" after update of "refs" on "porter_records" ' +
      'for each row when (old."refs" is distinct from new."refs") execute function "porter_record_refs_sync"();',

    'create table "porter_blobs" ("namespace" text collate "C" not null, "key" text collate "C" not null, "content_type" text not null, ' +
      '"size" int not null, "data" bytea not null, "updated_at" bigint not null, constraint "porter_blobs_pkey" primary key ("namespace", "key"));',
  ],
};
