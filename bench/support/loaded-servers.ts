import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import type { Figure } from './harness.js';
import type { BenchDatabase } from './postgres-database.js';
import { startTsx } from '../../test/support/child-process.js';

/**
 * Servers loaded in turn, each in a process of its own on a database of its own, with the CPU each
 * side spent: its process's (which answers `GET /cpu`) and PostgreSQL's for its database. Loading
 * them in slices taken in turn lets a machine that slows down or speeds up during the run weigh on
 * both alike (on these 2-core machines, runs minutes apart differ by a fifth).
 */

/** The kernel's clock ticks per second (`getconf CLK_TCK`), the unit of /proc/<pid>/stat's times. */
const CLOCK_TICKS = 100;

export interface LoadedServer {
  /** Where the load is sent: `http://127.0.0.1:<port>` and the mount. */
  readonly base: string;
  cpuMicros(): Promise<number>;
  close(): Promise<void>;
}

/**
 * Starts `script` (a server printing `listening <port>` and answering `GET /cpu` with its process's
 * CPU in microseconds) with `args`; the load goes to `mount` on it. PORTER_BENCH_CPU_PROF=<folder>:
 * it writes a V8 CPU profile there when it stops.
 */
export async function startLoadedServer(script: string, args: readonly string[], mount = ''): Promise<LoadedServer> {
  const { child, match } = await startTsx({
    script,
    args,
    env: { ...process.env, NODE_ENV: 'production' },
    nodeArgs: process.env.PORTER_BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PORTER_BENCH_CPU_PROF}`] : [],
    ready: /listening (\d+)/,
    exited: `the bench server ${script} exited`,
  });
  const url = `http://127.0.0.1:${Number(match[1])}`;
  return {
    base: `${url}${mount}`,
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
 * what the backends wrote: the servers are loaded in turn, so what those do in a slice is that
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

/** Load for `ms` on the server at `base`: the turns it ended, each one's latency pushed to `latencies`. */
export type Load = (base: string, ms: number, latencies: number[]) => Promise<number>;

/** One server under measure, with what its slices added up to. */
export class LoadedSide {
  private turns = 0;
  private serverMicros = 0;
  private databaseMicros = 0;
  private milliseconds = 0;
  private readonly latencies: number[] = [];

  private constructor(
    readonly server: LoadedServer,
    private readonly admin: pg.Client,
    private readonly database: string,
  ) {}

  static async open(server: LoadedServer, database: BenchDatabase): Promise<LoadedSide> {
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    return new LoadedSide(server, admin, new URL(database.url).pathname.slice(1));
  }

  /** One slice of `load` for `ms`, its turns and CPU added to what this side has. */
  async slice(load: Load, ms: number): Promise<void> {
    const before = new Map<number, number>();
    await databaseCpuMicros(this.admin, this.database, before);
    const serverBefore = await this.server.cpuMicros();
    const started = performance.now();
    this.turns += await load(this.server.base, ms, this.latencies);
    this.milliseconds += performance.now() - started;
    this.serverMicros += (await this.server.cpuMicros()) - serverBefore;
    const after = new Map<number, number>();
    await databaseCpuMicros(this.admin, this.database, after);
    for (const [pid, micros] of after) this.databaseMicros += micros - (before.get(pid) ?? 0);
  }

  measured(): Measured {
    const latencies = [...this.latencies].sort((a, b) => a - b);
    const seconds = this.milliseconds / 1000;
    return {
      turnsPerSecond: this.turns / seconds,
      serverMicrosPerTurn: this.serverMicros / this.turns,
      databaseMicrosPerTurn: this.databaseMicros / this.turns,
      figure: {
        opsPerSecond: this.turns / seconds,
        p50Micros: latencies[Math.floor(latencies.length / 2)]!,
        p99Micros: latencies[Math.floor(latencies.length * 0.99)]!,
        operations: this.turns,
      },
    };
  }

  async close(): Promise<void> {
    await this.admin.end();
    await this.server.close();
  }
}

export interface Measured {
  readonly turnsPerSecond: number;
  readonly serverMicrosPerTurn: number;
  readonly databaseMicrosPerTurn: number;
  readonly figure: Figure;
}

/** A server's and its database's CPU a turn, together. */
export const combinedMicros = (m: Measured): number => m.serverMicrosPerTurn + m.databaseMicrosPerTurn;

const ms = (micros: number) => `${(micros / 1000).toFixed(2)} ms`;

/** "6.58 ms server + 3.13 ms PostgreSQL = 9.71 ms CPU a turn, 137.0 turns/s". */
export function describeMeasured(m: Measured): string {
  return `${ms(m.serverMicrosPerTurn)} server + ${ms(m.databaseMicrosPerTurn)} PostgreSQL = ${ms(combinedMicros(m))} CPU a turn, ${m.turnsPerSecond.toFixed(1)} turns/s`;
}

/**
 * Each side warmed up for `warmupMs`, then loaded in turn, `slices` slices of `measureMs / slices`
 * each; every side's server closed after.
 */
export async function measureInTurn(
  open: ReadonlyArray<() => Promise<LoadedSide>>,
  load: Load,
  timing: { readonly warmupMs: number; readonly measureMs: number; readonly slices: number },
): Promise<Measured[]> {
  const sides: LoadedSide[] = [];
  try {
    for (const side of open) sides.push(await side());
    for (const side of sides) await load(side.server.base, timing.warmupMs, []);
    for (let i = 0; i < timing.slices; i++) for (const side of sides) await side.slice(load, timing.measureMs / timing.slices);
    return sides.map((side) => side.measured());
  } finally {
    for (const side of sides) await side.close();
  }
}
