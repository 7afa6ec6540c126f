import type { SqlMigration } from '../sql-migration.js';

/**
 * The first SQLite schema: records, their refs and blobs (see record-schema.ts for the mapping).
 * Triggers keep porter_record_refs in step with porter_records.refs, so every write of a record,
 * refs included, is one statement and therefore atomic on its own.
 */
export const SQLITE_INITIAL_SCHEMA: SqlMigration = {
  name: '0001-initial-schema',
  statements: [
    'create table `porter_records` (`collection` text not null, `id` text not null, `data` json not null, `refs` json not null, ' +
      '`revision` integer not null, `created_at` bigint not null, `updated_at` bigint not null, primary key (`collection`, `id`));',
    'create index `porter_records_listing` on `porter_records` (`collection`, `created_at`, `id`);',

    // Small rows looked up by their key: clustering them on it (without rowid) saves one b-tree per write.
    'create table `porter_record_refs` (`collection` text not null, `record_id` text not null, `name` text not null, `value` text not null, ' +
      '`created_at` bigint not null, primary key (`collection`, `record_id`, `name`), ' +
      'constraint `porter_record_refs_collection_record_id_foreign` foreign key (`collection`, `record_id`) ' +
      'references `porter_records` (`collection`, `id`) on update cascade on delete cascade) without rowid;',
    'create index `porter_record_refs_lookup` on `porter_record_refs` (`collection`, `name`, `value`, `created_at`, `record_id`);',
    'create trigger `porter_records_refs_inserted` after insert on `porter_records` begin ' +
      'insert into `porter_record_refs` (`collection`, `record_id`, `name`, `value`, `created_at`) ' +
      'select new.`collection`, new.`id`, `key`, `value`, new.`created_at` from json_each(new.`refs`); ' +
      'end;',
    'create trigger `porter_records_refs_updated` after update of `refs` on `porter_records` when old.`refs` is not new.`refs` begin ' +
      'delete from `porter_record_refs` where `collection` = old.`collection` and `record_id` = old.`id`; ' +
      'insert into `porter_record_refs` (`collection`, `record_id`, `name`, `value`, `created_at`) ' +
      'select new.`collection`, new.`id`, `key`, `value`, new.`created_at` from json_each(new.`refs`); ' +
      'end;',

    'create table `porter_blobs` (`namespace` text not null, `key` text not null, `content_type` text not null, `size` integer not null, ' +
      '`data` blob not null, `updated_at` bigint not null, primary key (`namespace`, `key`));',
  ],
};
