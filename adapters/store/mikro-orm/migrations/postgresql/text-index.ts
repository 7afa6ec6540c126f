import type { SqlMigration } from '../sql-migration.js';

/**
 * The text index (ports/text-index.ts) on tsvector: each passage's folded words (`terms`, the
 * 'simple' configuration over words folded by domain/search/text-query.ts) under a GIN index, and
 * its labels as jsonb under a GIN index of their own, so a scoped search can use both.
 */
export const POSTGRESQL_TEXT_INDEX: SqlMigration = {
  name: '0003-text-index',
  statements: [
    'create table "porter_text_passages" ("collection" text collate "C" not null, "id" text collate "C" not null, ' +
      '"refs" jsonb not null, "text" text not null, "terms" tsvector not null, ' +
      'constraint "porter_text_passages_pkey" primary key ("collection", "id"));',
    'create index "porter_text_passages_terms" on "porter_text_passages" using gin ("terms");',
    'create index "porter_text_passages_refs" on "porter_text_passages" using gin ("refs" jsonb_path_ops);',
  ],
};
