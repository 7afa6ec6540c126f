import type { SqlMigration } from '../sql-migration.js';

/**
 * Feeds (see feed-schema.ts): one row per append, read by key from a position. Wake-ups travel by
 * NOTIFY on the channel `porter_feeds` with the payload `<namespace> <key>`, never the entries.
 * The table is UNLOGGED: its rows live for a turn, so an append need not wait for the WAL to reach
 * the disk (a crash of the database server empties it, and the turns it served are lost anyway).
 */
export const POSTGRESQL_FEED_ENTRIES: SqlMigration = {
  name: '0002-feed-entries',
  statements: [
    'create unlogged table "porter_feed_entries" ("namespace" text collate "C" not null, "key" text collate "C" not null, ' +
      '"last_seq" int not null, "first_seq" int not null, "entries" json not null, "created_at" bigint not null, ' +
      'constraint "porter_feed_entries_pkey" primary key ("namespace", "key", "last_seq"));',
    'create index "porter_feed_entries_age" on "porter_feed_entries" ("namespace", "created_at");',
  ],
};
