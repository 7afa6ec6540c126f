import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPorter, type Porter } from '../../composition/create-porter.js';
import { containerOf } from '../../composition/porter-container.js';
import { get, TOKENS } from '../../composition/tokens.js';
import { KNOWLEDGE_TEXT_COLLECTION } from '../../application/knowledge/knowledge-settings.js';
import type { TextIndex } from '../../ports/text-index.js';
import { compare, timeOnce, type BenchResult } from '../support/harness.js';
import { benchDatabaseOrSkip } from '../support/postgres-database.js';
import { zeroLatencyModel } from '../support/quiet-model.js';
import { random, word, zipf } from '../support/zipf-words.js';

/** About 100,000 passages: 80 documents of 1,000 paragraphs, cut with their overlap into ~1,250 passages each. */
const DOCUMENTS = 80;
const PARAGRAPHS = 1_000;
const WORDS_PER_PARAGRAPH = 140;
const PEOPLE = 100;
const GOAL_MS = 20;

/**
 * Knowledge retrieval over ~100,000 passages, as `knowledge_search` asks it: one person's best 5
 * for one or two words, among the documents scoped to everyone and to them (a tenth of the documents
 * are scoped to one person each), each hit's document checked and its passage's text read
 * (`porter.knowledge.search`). Anchor: the text index's own search for the same words and scopes
 * (TextIndex.search, no document check, no passage text). Goal: p50 < 20 ms on SQLite and on
 * PostgreSQL. Not measured yet: it wants a quiet machine.
 */
export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const folder = mkdtempSync(join(tmpdir(), 'porter-bench-knowledge-'));
  try {
    results.push(await measure('sqlite FTS5', `sqlite:${join(folder, 'knowledge.db')}`));
    const database = await benchDatabaseOrSkip('knowledge retrieval');
    if (database) {
      try {
        results.push(await measure('postgresql tsvector', database.url));
      } finally {
        await database.drop();
      }
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  return results;
}

async function measure(engine: string, databaseUrl: string): Promise<BenchResult> {
  const porter = await createPorter(
    {
      principal: () => ({ subject: 'bench', kind: 'user' }),
      model: zeroLatencyModel(5),
      databaseUrl,
      secret: 'b'.repeat(40),
      logger: 'silent',
      knowledge: { maxDocumentBytes: 8 * 1024 * 1024 },
    },
    {},
  );
  try {
    const load = await timeOnce(() => seed(porter));
    console.log(`${engine}: ${load.value.toLocaleString('en')} passages indexed in ${(load.figure.p50Micros / 1e6).toFixed(1)} s`);
    const index: TextIndex = get(containerOf(porter), TOKENS.Store).textIndex!(KNOWLEDGE_TEXT_COLLECTION);
    const result = await compare({
      name: `knowledge search over ${load.value.toLocaleString('en')} passages, one person's best 5 (${engine})`,
      subject: {
        name: 'porter.knowledge.search',
        run: (i) => {
          const { text, person } = query(i);
          return porter.knowledge.search({ subject: person, kind: 'user' }, text, 5);
        },
      },
      anchor: {
        name: 'TextIndex.search, same scopes',
        run: (i) => {
          const { text, person } = query(i);
          return index.search({ text, where: { scope: ['everyone', `person:${person}`] }, limit: 5 });
        },
      },
      iterations: 500,
      measure: 'p50',
      goal: 0,
    });
    const p50 = result.figure.p50Micros / 1000;
    return { ...result, absoluteGoal: { met: p50 < GOAL_MS, text: `p50 ${p50.toFixed(2)} ms < ${GOAL_MS} ms` } };
  } finally {
    await porter.close();
  }
}

/** The documents, added as a host adds them; answers how many passages they were cut into. */
async function seed(porter: Porter): Promise<number> {
  const next = random(1);
  let passages = 0;
  for (let d = 0; d < DOCUMENTS; d++) {
    const paragraphs = Array.from({ length: PARAGRAPHS }, () =>
      Array.from({ length: WORDS_PER_PARAGRAPH }, () => word(zipf(next))).join(' '),
    );
    const added = await porter.knowledge.add({
      title: `Document ${d}`,
      format: 'text',
      content: paragraphs.join('\n\n'),
      ...(d % 10 === 0 ? { scope: { kind: 'person' as const, subject: `person-${d % PEOPLE}` } } : {}),
    });
    passages += added.passages;
  }
  return passages;
}

const QUERIES = (() => {
  const next = random(2);
  return Array.from({ length: 500 }, (_, n) => ({
    text: (n % 3 === 0 ? [word(zipf(next)), word(zipf(next))] : [word(zipf(next))]).join(' '),
    person: `person-${Math.floor(next() * PEOPLE)}`,
  }));
})();

function query(iteration: number) {
  return QUERIES[iteration % QUERIES.length]!;
}
