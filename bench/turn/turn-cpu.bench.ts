import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchResult } from '../support/harness.js';
import { benchDatabaseOrSkip, type BenchDatabase } from '../support/postgres-database.js';
import { ensureBuilt } from '../support/built-porter.js';
import { combinedMicros, describeMeasured, LoadedSide, measureInTurn, startLoadedServer } from '../support/loaded-servers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVER = join(ROOT, 'bench', 'support', 'turn-cpu-server.ts');
const TOKENS = 50;
/** Clients sending turns at once, each as its own person: enough to keep two cores busy. */
const CLIENTS = 16;
/** 3 s of warm-up, then each server's 15 s of measured load in 3 s slices taken in turn with the other's. */
const TIMING = { warmupMs: 3_000, measureMs: 15_000, slices: 5 };

async function oneTurn(base: string, subject: string, latencies: number[]): Promise<void> {
  const headers = { 'content-type': 'application/json', 'x-subject': subject };
  const started = performance.now();
  const thread = (await (await fetch(`${base}/threads`, { method: 'POST', headers, body: '{}' })).json()) as { id: string };
  const response = await fetch(`${base}/threads/${thread.id}/turn`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ message: { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text: 'hello' }] } }),
  });
  const text = await response.text();
  if (!response.ok || !text.includes('[DONE]')) throw new Error(`a turn answered ${response.status}: ${text.slice(0, 200)}`);
  latencies.push((performance.now() - started) * 1000);
}

/** `CLIENTS` people sending turns back to back for `ms`; the turns that ended and their latencies. */
async function load(base: string, ms: number, latencies: number[]): Promise<number> {
  const until = performance.now() + ms;
  let turns = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      while (performance.now() < until) {
        await oneTurn(base, `bench-${client}`, latencies);
        turns += 1;
      }
    }),
  );
  return turns;
}

const side = (kind: 'porter' | 'bare', database: BenchDatabase) => async () =>
  LoadedSide.open(
    await startLoadedServer(
      SERVER,
      [JSON.stringify({ kind, databaseUrl: database.url, tokens: TOKENS })],
      kind === 'porter' ? '/api/porter' : '',
    ),
    database,
  );

const ms = (micros: number) => `${(micros / 1000).toFixed(2)} ms`;

/**
 * bench/turn turn-cpu: CPU per turn, Porter's process and PostgreSQL's (the server processes of
 * the bench's database, from /proc), with 16 people sending turns back to back (a new thread and a
 * 50-word answer from a zero-latency model each, read to the end) for 15 s after 3 s of warm-up,
 * the two servers taking turns in 3 s slices.
 * Anchor, in the same run and on the same server: a bare AI SDK server storing the same thread and
 * messages in the same PostgreSQL with the same `pg` driver (bench/support/turn-cpu-server.ts).
 * Goal (issue 32): Porter's combined CPU per turn ≤ 2× the bare server's. Each server runs in a
 * process of its own; the client's CPU is not counted. Porter runs from its built package (`dist/`).
 */
export async function run(): Promise<BenchResult[]> {
  ensureBuilt();
  const porterDb = await benchDatabaseOrSkip('turn-cpu');
  const bareDb = await benchDatabaseOrSkip('turn-cpu');
  if (!porterDb || !bareDb) return [];
  try {
    const [bare, porter] = await measureInTurn([side('bare', bareDb), side('porter', porterDb)], load, TIMING);
    const times = combinedMicros(porter!) / combinedMicros(bare!);
    console.log(`turn-cpu: Porter ${describeMeasured(porter!)}\nturn-cpu: bare AI SDK + pg ${describeMeasured(bare!)}`);
    return [
      {
        name: `turn CPU: new thread + ${TOKENS}-word turn, ${CLIENTS} people at once, PostgreSQL`,
        subject: 'Porter',
        figure: porter!.figure,
        anchor: { name: 'bare AI SDK + pg', figure: bare!.figure },
        goal: 0,
        absoluteGoal: {
          met: times <= 2,
          text: `combined CPU a turn ${ms(combinedMicros(porter!))} vs ${ms(combinedMicros(bare!))}: ${times.toFixed(2)}×; goal ≤ 2×`,
        },
      },
    ];
  } finally {
    await porterDb.drop();
    await bareDb.drop();
  }
}
