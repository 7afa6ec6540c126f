import Database from 'libsql';
import pg from 'pg';
import { join } from 'node:path';
import { MikroOrmStore } from '../../adapters/store/mikro-orm/mikro-orm-store.js';
import { labelToken } from '../../adapters/store/mikro-orm/sqlite-text-index.js';
import { SystemClock } from '../../adapters/runtime/system-clock.js';
import type { Passage, TextIndex } from '../../ports/text-index.js';
import { compare, timeOnce, type BenchResult } from '../support/harness.js';
import { benchDatabaseOrSkip } from '../support/postgres-database.js';
import { inScratchFolder } from '../support/scratch-folder.js';
import { random, word, zipf } from '../support/zipf-words.js';

const PASSAGES = 100_000;
const OWNERS = 100;
const WORDS_PER_PASSAGE = 40;
const COLLECTION = 'bench';
const GOAL_MS = 20;

/**
 * Full-text retrieval over 100,000 passages (100 owners × 1,000, 40 words each from a Zipf-like
 * vocabulary of 20,000 words), as thread search asks it: one owner's best 20 for one or two words
 * typed, with snippets (TextIndex.search). Anchor: the bare engine query on the same data, same
 * scope and ranking, no snippet and no adapter (an FTS5 MATCH ordered by bm25; a tsvector @@
 * ordered by ts_rank). Goal: search p50 < 20 ms on SQLite and on PostgreSQL.
 */
export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const clock = new SystemClock();
  await inScratchFolder('porter-bench-search-', async (folder) => {
    const file = join(folder, 'search.db');
    const store = await MikroOrmStore.open({ target: { engine: 'sqlite', file }, clock });
    const raw = new Database(file);
    try {
      const index = store.textIndex(COLLECTION);
      const load = await timeOnce(() => seed(index));
      console.log(`sqlite: ${PASSAGES.toLocaleString('en')} passages indexed in ${(load.figure.p50Micros / 1e6).toFixed(1)} s`);
      const bare = raw.prepare(
        'select p.id, bm25(porter_text_words, 1.0, 0.0) as score from porter_text_words join porter_text_passages p on p.seq = porter_text_words.rowid ' +
          'where porter_text_words match ? order by score limit 20',
      );
      results.push(
        judged(
          await compare({
            name: `search ${PASSAGES.toLocaleString('en')} passages, one owner's best 20 (sqlite FTS5)`,
            subject: { name: 'TextIndex.search', run: (i) => index.search(query(i)) },
            anchor: {
              name: 'bare FTS5 MATCH + bm25',
              run: async (i) => {
                const { text, where } = query(i);
                const words = text.split(' ').map((word) => `"${word}"*`);
                return bare.all([`keys : ${labelToken([COLLECTION, 'owner', where.owner])} AND text : (${words.join(' ')})`]);
              },
            },
            iterations: 2_000,
            measure: 'p50',
            goal: 0,
          }),
        ),
      );
    } finally {
      raw.close();
      await store.close();
    }
  });

  const database = await benchDatabaseOrSkip('search');
  if (database) {
    const store = await MikroOrmStore.open({ target: { engine: 'postgresql', url: database.url }, clock });
    const raw = new pg.Client({ connectionString: database.url });
    await raw.connect();
    try {
      const index = store.textIndex(COLLECTION);
      const load = await timeOnce(() => seed(index));
      console.log(`postgresql: ${PASSAGES.toLocaleString('en')} passages indexed in ${(load.figure.p50Micros / 1e6).toFixed(1)} s`);
      // What autovacuum does on a live database: merges the GIN indexes' pending lists, so a search
      // does not scan the last few thousand writes one by one.
      await raw.query('vacuum analyze porter_text_passages');
      results.push(
        judged(
          await compare({
            name: `search ${PASSAGES.toLocaleString('en')} passages, one owner's best 20 (postgresql tsvector)`,
            subject: { name: 'TextIndex.search', run: (i) => index.search(query(i)) },
            anchor: {
              name: 'bare tsvector @@ + ts_rank',
              run: async (i) => {
                const { text, where } = query(i);
                return raw.query({
                  name: 'bare',
                  text:
                    "select id, ts_rank(terms, q) as rank from porter_text_passages, to_tsquery('simple', $1) q " +
                    'where collection = $2 and terms @@ q and refs @> $3::jsonb order by rank desc limit 20',
                  values: [
                    text
                      .split(' ')
                      .map((word) => `'${word}':*`)
                      .join(' & '),
                    COLLECTION,
                    JSON.stringify({ owner: where.owner }),
                  ],
                });
              },
            },
            iterations: 2_000,
            measure: 'p50',
            goal: 0,
          }),
        ),
      );
    } finally {
      await raw.end();
      await store.close();
      await database.drop();
    }
  }
  return results;
}

/** The goal is absolute: the subject's p50 under GOAL_MS. */
function judged(result: BenchResult): BenchResult {
  const p50 = result.figure.p50Micros / 1000;
  return { ...result, absoluteGoal: { met: p50 < GOAL_MS, text: `p50 ${p50.toFixed(2)} ms < ${GOAL_MS} ms` } };
}

async function seed(index: TextIndex): Promise<void> {
  const next = random(1);
  let batch: Passage[] = [];
  for (let n = 0; n < PASSAGES; n++) {
    const text = Array.from({ length: WORDS_PER_PASSAGE }, () => word(zipf(next))).join(' ');
    batch.push({ id: `p${n}`, refs: { owner: `owner-${n % OWNERS}`, thread: `t${Math.floor(n / 10)}` }, text });
    if (batch.length === 500) {
      await index.put(batch);
      batch = [];
    }
  }
  if (batch.length) await index.put(batch);
}

const QUERIES = (() => {
  const next = random(2);
  return Array.from({ length: 500 }, (_, n) => {
    // Mostly one word, a third two: what a person types into a search box.
    const words = n % 3 === 0 ? [word(zipf(next)), word(zipf(next))] : [word(zipf(next))];
    return { text: words.join(' '), where: { owner: `owner-${Math.floor(next() * OWNERS)}` }, limit: 20 };
  });
})();

function query(iteration: number) {
  return QUERIES[iteration % QUERIES.length]!;
}
