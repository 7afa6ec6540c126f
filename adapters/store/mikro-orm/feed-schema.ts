import { EntitySchema, JsonType } from '@mikro-orm/core';
import { epochMillis, textKey } from './record-schema.js';

/**
 * The feeds table (PostgreSQL only: SQLite keeps feeds within the process). One row is one append:
 * the entries numbered `first_seq` to `last_seq` of one key's feed, as a JSON array.
 */
export interface FeedEntryRow {
  namespace: string;
  key: string;
  lastSeq: number;
  firstSeq: number;
  entries: unknown;
  createdAt: number;
}

export const FEED_ENTRIES_TABLE = 'porter_feed_entries';

export const FeedEntryRowSchema = new EntitySchema<FeedEntryRow>({
  name: 'PorterFeedEntry',
  tableName: FEED_ENTRIES_TABLE,
  properties: {
    ...textKey('namespace', 'key'),
    // The primary key ends with the last entry's number: a read from n walks it from the first row holding n.
    lastSeq: { type: 'integer', fieldName: 'last_seq', primary: true },
    firstSeq: { type: 'integer', fieldName: 'first_seq' },
    entries: { type: JsonType, columnType: 'json' },
    createdAt: { ...epochMillis(), fieldName: 'created_at' },
  },
  // Pruning what dead writers left reads rows by age.
  indexes: [{ name: 'porter_feed_entries_age', properties: ['namespace', 'createdAt'] }],
});
