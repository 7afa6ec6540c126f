import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchResult } from '../support/harness.js';
import { benchDatabaseOrSkip, type BenchDatabase } from '../support/postgres-database.js';
import { ensureBuilt } from '../support/built-porter.js';
import { builtBaseline } from '../support/baseline-porter.js';
import { combinedMicros, describeMeasured, LoadedSide, measureInTurn, startLoadedServer } from '../support/loaded-servers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVER = join(ROOT, 'bench', 'support', 'turn-mix-server.ts');
/**
 * Issue 32's "today": `main` when the issue was filed (the work of stops 33–35 began on it). It
 * measured this mix at 25.6 turns/s on one instance of a 2-core machine. PORTER_BENCH_BASELINE
 * names another commit.
 */
const BASELINE = process.env.PORTER_BENCH_BASELINE ?? 'fe08fe1';
/**
 * People at once: enough to keep Porter busy, few enough that the load generator (one Node process
 * on the same two cores, reading every stream) is not what limits the turns a second (at about 300
 * it is, and both sides then measure the client).
 */
const PEOPLE = Number(process.env.PORTER_BENCH_MIX_PEOPLE ?? 120);
/** 5 s of warm-up, then each side's 30 s of measured load in 10 s slices taken in turn with the other's. */
const TIMING = { warmupMs: 5_000, measureMs: 30_000, slices: 3 };
const SLOW = '/slow 2 a slow answer streamed word by word over two seconds, the way a model that thinks aloud would send it to a person';

interface Person {
  readonly base: string;
  readonly headers: Record<string, string>;
  readonly latencies: number[];
}

/** One turn read to its end; the stream's text. */
async function turn(person: Person, thread: string, body: unknown): Promise<string> {
  const started = performance.now();
  const response = await fetch(`${person.base}/threads/${thread}/turn`, {
    method: 'POST',
    headers: person.headers,
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok || !text.includes('[DONE]')) throw new Error(`a turn answered ${response.status}: ${text.slice(0, 300)}`);
  person.latencies.push((performance.now() - started) * 1000);
  return text;
}

async function json(person: Person, path: string, body: unknown): Promise<{ id?: string; state?: string }> {
  const response = await fetch(`${person.base}${path}`, { method: 'POST', headers: person.headers, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { id?: string; state?: string };
}

/**
 * One person's conversation: a new thread, an echo, a slow streamed answer, and a tool call that
 * asks first, approved over another request (as a person on another page or instance would) and
 * continued. The turns it ended, stopping between steps once `until` has passed.
 */
async function conversation(person: Person, until: number): Promise<number> {
  const thread = (await json(person, '/threads', {})).id!;
  if (performance.now() >= until) return 0;
  await turn(person, thread, { message: 'hello, what can you do for me today?' });
  if (performance.now() >= until) return 1;
  await turn(person, thread, { message: SLOW });
  if (performance.now() >= until) return 2;
  const asked = await turn(person, thread, { message: '/call notes_add {"text":"buy milk"}' });
  const approvalId = /"approvalId":"([^"]+)"/.exec(asked)?.[1];
  if (!approvalId) throw new Error(`the call was not parked for approval: ${asked.slice(0, 300)}`);
  const decided = await json(person, `/approvals/${approvalId}/decide`, { approve: true });
  if (decided.state !== 'approved') throw new Error(`the approval was ${decided.state}`);
  const continued = await turn(person, thread, { continue: true });
  if (!continued.includes('"type":"tool-output-available"')) throw new Error(`the approved call did not run: ${continued.slice(0, 300)}`);
  return 4;
}

/** `PEOPLE` people in conversations back to back for `ms`; the turns that ended and their latencies. */
async function load(base: string, ms: number, latencies: number[]): Promise<number> {
  const until = performance.now() + ms;
  let turns = 0;
  await Promise.all(
    Array.from({ length: PEOPLE }, async (_, index) => {
      const person = { base, latencies, headers: { 'content-type': 'application/json', 'x-subject': `mix-${index}` } };
      while (performance.now() < until) {
        const ended = await conversation(person, until);
        turns += ended;
      }
    }),
  );
  return turns;
}

const side = (root: string, database: BenchDatabase) => async () =>
  LoadedSide.open(await startLoadedServer(SERVER, [JSON.stringify({ root, databaseUrl: database.url })], '/api/porter'), database);

/**
 * bench/turn turn-mix: turns a second on one Porter on PostgreSQL under issue 32's mix (echo, slow
 * streamed answers, tool calls approved over another request), `PEOPLE` people at once, with the
 * CPU a turn of Porter's process and of PostgreSQL's.
 * Anchor, in the same run on the same PostgreSQL: Porter as it was when the issue was filed
 * (`BASELINE`, built from git history into a temporary folder), the two taking turns in 10 s slices.
 * Goal (issue 32): ≥ 2× its turns a second on this 2-core machine, judged by the turns a second
 * of CPU (Porter's and PostgreSQL's), since the load generator shares the machine; the turns a
 * second measured are printed beside it. Both run from their built packages (`dist/`).
 */
export async function run(): Promise<BenchResult[]> {
  ensureBuilt();
  const baseline = builtBaseline(BASELINE);
  if (!baseline) return [];
  const nowDb = await benchDatabaseOrSkip('turn-mix');
  const thenDb = await benchDatabaseOrSkip('turn-mix');
  if (!nowDb || !thenDb) return [];
  try {
    const [then, now] = await measureInTurn([side(baseline.root, thenDb), side(ROOT, nowDb)], load, TIMING);
    // What two cores would carry with the load generator elsewhere: the turns a second of CPU.
    const capacity = combinedMicros(then!) / combinedMicros(now!);
    const at = baseline.commit.slice(0, 7);
    console.log(`turn-mix: Porter now ${describeMeasured(now!)}\nturn-mix: Porter at ${at} ${describeMeasured(then!)}`);
    return [
      {
        name: `turn mix: echo, /slow 2, a call approved then continued; ${PEOPLE} people at once, PostgreSQL`,
        subject: 'Porter',
        figure: now!.figure,
        anchor: { name: `Porter at ${at}`, figure: then!.figure },
        goal: 0,
        absoluteGoal: {
          met: capacity >= 2,
          text: `turns a second of CPU (Porter + PostgreSQL) ${capacity.toFixed(2)}× those of ${at}; goal ≥ 2×`,
        },
      },
    ];
  } finally {
    await nowDb.drop();
    await thenDb.drop();
  }
}
