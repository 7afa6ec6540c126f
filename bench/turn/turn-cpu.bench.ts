import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { BenchResult, Figure } from '../support/harness.js';
import { benchDatabaseOrSkip, type BenchDatabase } from '../support/postgres-database.js';
import { startTsx } from '../../test/support/child-process.js';
import { ensureBuilt } from '../support/built-porter.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVER = join(ROOT, 'bench', 'support', 'turn-cpu-server.ts');
const TOKENS = 50;
/** Clients sending turns at once, each as its own person: enough to keep two cores busy. */
const CLIENTS = 16;
const WARMUP_MS = 3_000;
/** Each server's measured load, in slices taken in turn with the other's. */
const MEASURE_MS = 15_000;
const SLICES = 5;
/** The kernel's clock ticks per second (`getconf CLK_TCK`), the unit of /proc/<pid>/stat's times. */
const CLOCK_TICKS = 100;

interface Server {
  readonly base: string;
  cpuMicros(): Promise<number>;
  close(): Promise<void>;
}

async function startServer(kind: 'porter' | 'bare', databaseUrl: string): Promise<Server> {
  const { child, match } = await startTsx({
    script: SERVER,
    args: [JSON.stringify({ kind, databaseUrl, tokens: TOKENS })],
    env: { ...process.env, NODE_ENV: 'production' },
    // PORTER_BENCH_CPU_PROF=<folder>: each server writes a V8 CPU profile there when it stops.
    nodeArgs: process.env.PORTER_BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PORTER_BENCH_CPU_PROF}`] : [],
    ready: /listening (\d+)/,
    exited: 'the turn CPU server exited',
  });
  const url = `http://127.0.0.1:${Number(match[1])}`;
  return {
    base: kind === 'porter' ? `${url}/api/porter` : url,
    cpuMicros: async () => ((await (await fetch(`${url}/cpu`)).json()) as { micros: number }).micros,
    async close() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * CPU time, in microseconds, of the server processes serving connections to `database` now, and of
 * the server's own writers (the WAL writer, the background writer, the checkpointer), which work on
 * what the backends wrote: the two servers are loaded in turn, so what those do in a slice is that
 * slice's server's doing.
 */
async function databaseCpuMicros(admin: pg.Client, database: string, seen: Map<number, number>): Promise<void> {
  const { rows } = await admin.query<{ pid: number }>(
    `select pid from pg_stat_activity where (datname = $1 and pid <> pg_backend_pid())
       or backend_type in ('walwriter', 'background writer', 'checkpointer')`,
    [database],
  );
  for (const { pid } of rows) {
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime and stime are the 14th and 15th fields; the slice starts at the 3rd.
      seen.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS);
    } catch {
      // Gone between the query and the read: its last reading stands.
    }
  }
}

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

interface Measured {
  readonly turnsPerSecond: number;
  readonly serverMicrosPerTurn: number;
  readonly databaseMicrosPerTurn: number;
  readonly figure: Figure;
}

/** One server under measure, with what its slices added up to. */
interface Side {
  readonly server: Server;
  readonly admin: pg.Client;
  readonly database: string;
  turns: number;
  serverMicros: number;
  databaseMicros: number;
  milliseconds: number;
  readonly latencies: number[];
}

async function openSide(kind: 'porter' | 'bare', database: BenchDatabase): Promise<Side> {
  const server = await startServer(kind, database.url);
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  const name = new URL(database.url).pathname.slice(1);
  return { server, admin, database: name, turns: 0, serverMicros: 0, databaseMicros: 0, milliseconds: 0, latencies: [] };
}

/** One slice of load on `side`, its turns and CPU added to what it has. */
async function slice(side: Side, ms: number): Promise<void> {
  const before = new Map<number, number>();
  await databaseCpuMicros(side.admin, side.database, before);
  const serverBefore = await side.server.cpuMicros();
  const started = performance.now();
  side.turns += await load(side.server.base, ms, side.latencies);
  side.milliseconds += performance.now() - started;
  side.serverMicros += (await side.server.cpuMicros()) - serverBefore;
  const after = new Map<number, number>();
  await databaseCpuMicros(side.admin, side.database, after);
  for (const [pid, micros] of after) side.databaseMicros += micros - (before.get(pid) ?? 0);
}

function measured(side: Side): Measured {
  const latencies = [...side.latencies].sort((a, b) => a - b);
  const seconds = side.milliseconds / 1000;
  return {
    turnsPerSecond: side.turns / seconds,
    serverMicrosPerTurn: side.serverMicros / side.turns,
    databaseMicrosPerTurn: side.databaseMicros / side.turns,
    figure: {
      opsPerSecond: side.turns / seconds,
      p50Micros: latencies[Math.floor(latencies.length / 2)]!,
      p99Micros: latencies[Math.floor(latencies.length * 0.99)]!,
      operations: side.turns,
    },
  };
}

/**
 * Both servers warmed up, then loaded in turn, `SLICES` slices each: a machine that slows down or
 * speeds up during the run weighs on both alike (on this 2-core machine, runs minutes apart differ
 * by a fifth).
 */
async function measureBoth(bareDb: BenchDatabase, porterDb: BenchDatabase): Promise<{ bare: Measured; porter: Measured }> {
  const sides: Side[] = [];
  try {
    sides.push(await openSide('bare', bareDb), await openSide('porter', porterDb));
    for (const side of sides) await load(side.server.base, WARMUP_MS, []);
    for (let i = 0; i < SLICES; i++) for (const side of sides) await slice(side, MEASURE_MS / SLICES);
    return { bare: measured(sides[0]!), porter: measured(sides[1]!) };
  } finally {
    for (const side of sides) {
      await side.admin.end();
      await side.server.close();
    }
  }
}

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
    const { bare, porter } = await measureBoth(bareDb, porterDb);
    const combined = (m: Measured) => m.serverMicrosPerTurn + m.databaseMicrosPerTurn;
    const times = combined(porter) / combined(bare);
    const detail = (m: Measured) =>
      `${ms(m.serverMicrosPerTurn)} server + ${ms(m.databaseMicrosPerTurn)} PostgreSQL = ${ms(combined(m))} CPU a turn, ${m.turnsPerSecond.toFixed(1)} turns/s`;
    console.log(`turn-cpu: Porter ${detail(porter)}\nturn-cpu: bare AI SDK + pg ${detail(bare)}`);
    return [
      {
        name: `turn CPU: new thread + ${TOKENS}-word turn, ${CLIENTS} people at once, PostgreSQL`,
        subject: 'Porter',
        figure: porter.figure,
        anchor: { name: 'bare AI SDK + pg', figure: bare.figure },
        goal: 0,
        absoluteGoal: {
          met: times <= 2,
          text: `combined CPU a turn ${ms(combined(porter))} vs ${ms(combined(bare))}: ${times.toFixed(2)}×; goal ≤ 2×`,
        },
      },
    ];
  } finally {
    await porterDb.drop();
    await bareDb.drop();
  }
}
