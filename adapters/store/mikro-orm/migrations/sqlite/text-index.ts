import type { SqlMigration } from '../sql-migration.js';

/**
 * The text index (ports/text-index.ts) on FTS5: passages in porter_text_passages, their words in
 * porter_text_words, an external-content FTS5 table kept in step by triggers (so each write of a
 * passage is one statement). `keys` holds one hashed token per label (and one for the collection),
 * so a scope filter is part of the FTS5 match and narrows it in the index; see sqlite-text-index.ts.
 */
export const SQLITE_TEXT_INDEX: SqlMigration = {
  name: '0002-text-index',
  statements: [
    'create table `porter_text_passages` (`seq` integer primary key, `collection` text not null, `id` text not null, ' +
      '`refs` json not null, `text` text not null, `keys` text not null);',
    'create unique index `porter_text_passages_id` on `porter_text_passages` (`collection`, `id`);',
    "create virtual table `porter_text_words` using fts5(`text`, `keys`, content='porter_text_passages', content_rowid='seq', " +
      "tokenize='unicode61 remove_diacritics 2');",
    'create trigger `porter_text_passages_inserted` after insert on `porter_text_passages` begin ' +
      'insert into `porter_text_words` (`rowid`, `text`, `keys`) values (new.`seq`, new.`text`, new.`keys`); end;',
    'create trigger `porter_text_passages_deleted` after delete on `porter_text_passages` begin ' +
      "insert into `porter_text_words` (`porter_text_words`, `rowid`, `text`, `keys`) values ('delete', old.`seq`, old.`text`, old.`keys`); end;",
    'create trigger `porter_text_passages_updated` after update on `porter_text_passages` begin ' +
      "insert into `porter_text_words` (`porter_text_words`, `rowid`, `text`, `keys`) values ('delete', old.`seq`, old.`text`, old.`keys`); " +
      'insert into `porter_text_words` (`rowid`, `text`, `keys`) values (new.`seq`, new.`text`, new.`keys`); end;',
  ],
};
