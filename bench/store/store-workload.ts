import type { Comparison } from '../support/harness.js';
import type { RecordStatements } from '../../adapters/store/mikro-orm/record-statements.js';
import type { SqlStatement } from '../../adapters/store/mikro-orm/sql-statement.js';
import type { Store, StoredRecord } from '../../ports/store.js';
import type { RawDriver } from './raw-driver.js';

/** Sizes of the data the store bench works on. */
export const WORKLOAD = {
  /** Records the get and list operations read from. */
  listed: 6_000,
  /** Distinct owners among them: 100 records each, so a page of 50 always fills. */
  owners: 60,
  /** Ids each side of put and claim rotates through. */
  written: 1_000,
  pageSize: 50,
} as const;

const LISTED = 'bench_listed';
const WRITTEN = 'bench_written';
const CLAIMED = 'bench_claimed';

interface Payload {
  title: string;
  body: string;
  n: number;
  tags: string[];
  meta: { flag: boolean; score: number; note: null };
}

/** A realistic small record: about 250 bytes of JSON. */
export function payload(n: number): Payload {
  return {
    title: `Record number ${n}`,
    body: 'The quick brown fox jumps over the lazy dog, twice, to make the payload look like real text.',
    n,
    tags: ['alpha', 'beta', `t${n % 7}`],
    meta: { flag: n % 2 === 0, score: n / 3, note: null },
  };
}

const listedRefs = (i: number) => ({ owner: `u${i % WORKLOAD.owners}`, thread: `t${i % 400}` });
const writtenRefs = (i: number) => ({ owner: `u${i % 50}`, thread: `t${i % 200}` });

/** Fills the bench's collections through the raw driver, in one transaction per collection. */
export async function seed(raw: RawDriver, statements: RecordStatements, now: number): Promise<void> {
  const put = (collection: string, id: string, i: number): SqlStatement =>
    statements.put(collection, id, { data: JSON.stringify(payload(i)), refs: JSON.stringify(listedRefs(i)) }, now + i);
  await raw.batch(Array.from({ length: WORKLOAD.listed }, (_, i) => put(LISTED, `rec_${i}`, i)));
  await raw.batch(Array.from({ length: WORKLOAD.written }, (_, i) => put(CLAIMED, `store_${i}`, i)));
  await raw.batch(Array.from({ length: WORKLOAD.written }, (_, i) => put(CLAIMED, `raw_${i}`, i)));
}

/**
 * The four measured operations: each runs the same statement on the same schema, once through the
 * store and once through the raw driver. Writes use separate ids per side so neither meets the
 * other's rows.
 */
export async function comparisons(engine: string, store: Store, raw: RawDriver, statements: RecordStatements): Promise<Comparison[]> {
  const listed = store.records<Payload>(LISTED);
  const written = store.records<Payload>(WRITTEN);
  const claimed = store.records<Payload>(CLAIMED);
  const subject = 'MikroOrmStore';
  const goal = 0.5;

  // Claims need the revision each record is at; both sides start from their seeded records.
  const storeReads: StoredRecord<Payload>[] = [];
  for (let i = 0; i < WORKLOAD.written; i++) storeReads.push((await claimed.get(`store_${i}`))!);
  const rawRevisions: number[] = Array.from({ length: WORKLOAD.written }, () => 1);

  return [
    {
      name: `${engine} get-by-id`,
      iterations: 8_000,
      goal,
      subject: { name: subject, run: (i) => listed.get(`rec_${(i * 7919) % WORKLOAD.listed}`) },
      anchor: { name: raw.name, run: async (i) => decoded(await raw.rows(statements.get(LISTED, `rec_${(i * 7919) % WORKLOAD.listed}`))) },
    },
    {
      name: `${engine} put (2 refs)`,
      iterations: 2_000,
      goal,
      subject: { name: subject, run: (i) => written.put({ id: `store_${i % WORKLOAD.written}`, data: payload(i), refs: writtenRefs(i) }) },
      anchor: {
        name: raw.name,
        run: (i) =>
          raw.rows(
            statements.put(
              WRITTEN,
              `raw_${i % WORKLOAD.written}`,
              { data: JSON.stringify(payload(i)), refs: JSON.stringify(writtenRefs(i)) },
              Date.now(),
            ),
          ),
      },
    },
    {
      name: `${engine} list-by-ref (page of ${WORKLOAD.pageSize} of ${WORKLOAD.listed})`,
      iterations: 2_000,
      goal,
      subject: { name: subject, run: (i) => listed.list({ refs: { owner: `u${i % WORKLOAD.owners}` }, limit: WORKLOAD.pageSize }) },
      anchor: {
        name: raw.name,
        run: async (i) =>
          decoded(await raw.rows(statements.list(LISTED, [['owner', `u${i % WORKLOAD.owners}`]], null, WORKLOAD.pageSize + 1))),
      },
    },
    {
      name: `${engine} claim`,
      iterations: 2_000,
      goal,
      subject: {
        name: subject,
        run: async (i) => {
          const index = i % WORKLOAD.written;
          const read = storeReads[index]!;
          if (!(await claimed.claim!(read, { data: payload(i) }))) throw new Error(`bench claim lost on ${read.id}`);
          storeReads[index] = { ...read, revision: read.revision + 1 };
        },
      },
      anchor: {
        name: raw.name,
        run: async (i) => {
          const index = i % WORKLOAD.written;
          const swapped = await raw.rows(
            statements.swap(CLAIMED, `raw_${index}`, rawRevisions[index]!, JSON.stringify(payload(i)), null, Date.now()),
          );
          if (swapped.length !== 1) throw new Error(`raw claim lost on raw_${index}`);
          rawRevisions[index]! += 1;
        },
      },
    },
  ];
}

/**
 * What any caller of a raw driver does with a row before using it: JSON columns become values.
 * pg already parses json/jsonb columns; libsql hands back text, so the anchor parses it, as the
 * store must.
 */
function decoded(rows: unknown[]): unknown[] {
  return rows.map((row) => {
    const out: Record<string, unknown> = { ...(row as Record<string, unknown>) };
    for (const column of ['data', 'refs']) if (typeof out[column] === 'string') out[column] = JSON.parse(out[column] as string);
    return out;
  });
}
