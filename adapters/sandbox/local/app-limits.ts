import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { InvalidInput } from '../../../domain/errors.js';
import type { SandboxLimit } from '../../../ports/sandbox.js';

/**
 * What one app may use on this machine, under bubblewrap. The kernel holds each process to them
 * (rlimits set by util-linux `prlimit` as the app starts, tmpfs sizes for its folder and `/tmp`,
 * a lower CPU priority); the gate adds the app's processes up every `watchMs` (CPU time over the
 * last minute) and stops the app when they cross one.
 */
export interface AppLimits {
  /** Processes and threads together, like cgroups' `pids.max`: RLIMIT_NPROC in the app's own user namespace. Default 128. */
  readonly processes: number;
  /**
   * Memory, in MiB: each process's data segment (RLIMIT_DATA, which covers the heap and anonymous
   * mappings) and the anonymous memory of all its processes added up. Default 512.
   */
  readonly memoryMb: number;
  /**
   * CPU time, in seconds, its processes together may use in any minute (60 is one busy core; more
   * needs several). Default 45: a server may be busy, not spin for ever.
   */
  readonly cpuSecondsPerMinute: number;
  /** Disk, in MiB, for its folder (`/app`) and for its `/tmp`, each (tmpfs sizes, and RLIMIT_FSIZE). Default 256. */
  readonly diskMb: number;
  /** How long an app stopped for crossing a limit stays stopped before a request may start it again. Default 60 s. */
  readonly cooldownMs: number;
  /** How often the gate adds the app's processes up. Default 200 ms. */
  readonly watchMs: number;
}

export const DEFAULT_APP_LIMITS: AppLimits = {
  processes: 128,
  memoryMb: 512,
  cpuSecondsPerMinute: 45,
  diskMb: 256,
  cooldownMs: 60_000,
  watchMs: 200,
};

const RANGES: Record<keyof AppLimits, readonly [number, number]> = {
  processes: [16, 100_000],
  memoryMb: [64, 1_048_576],
  cpuSecondsPerMinute: [1, 3_840],
  diskMb: [1, 1_048_576],
  cooldownMs: [0, 86_400_000],
  watchMs: [20, 10_000],
};

/** The defaults with the host's choices on top, each checked (a bad one fails at boot, naming itself). */
export function appLimitsOf(given: Partial<AppLimits> = {}): AppLimits {
  const limits: Record<string, number> = { ...DEFAULT_APP_LIMITS };
  for (const [name, value] of Object.entries(given)) {
    if (value === undefined) continue;
    const range = RANGES[name as keyof AppLimits];
    if (!range) throw new InvalidInput(`appLimits.${name} is not a limit (${Object.keys(RANGES).join(', ')})`);
    if (!Number.isInteger(value) || value < range[0] || value > range[1])
      throw new InvalidInput(`appLimits.${name} must be an integer from ${range[0]} to ${range[1]} (got ${String(value)})`);
    limits[name] = value;
  }
  return limits as unknown as AppLimits;
}

const MIB = 1024 * 1024;

/**
 * util-linux `prlimit` options (soft = hard, so the app cannot raise them) that set a process's
 * rlimits before it runs. A limit looser than this host already imposes on Porter (its hard
 * rlimit, which no unprivileged process may raise) stays at the host's. The data segment holds
 * the app's memory on top of what Node maps before it runs any code (`runtime`, see
 * runtimeDataBytes); the memory the app actually uses is what the gate adds up and holds to `memoryMb`.
 */
export function prlimitOptions(limits: AppLimits, hard: HardLimits = hostHardLimits(), runtime = runtimeDataBytes()): string[] {
  const capped = (name: keyof HardLimits, value: number) => String(Math.min(value, hard[name]));
  const both = (name: keyof HardLimits, value: number) => `${capped(name, value)}:${capped(name, value)}`;
  return [
    `--nproc=${both('processes', limits.processes)}`,
    `--data=${both('data', limits.memoryMb * MIB + runtime)}`,
    `--fsize=${both('fileSize', limits.diskMb * MIB)}`,
    '--core=0:0',
  ];
}

/** The hard rlimits this process runs under (Infinity for unlimited), which its sandboxes inherit. */
export interface HardLimits {
  readonly processes: number;
  readonly data: number;
  readonly fileSize: number;
}

let hostLimits: HardLimits | null = null;

/** Read once from /proc/self/limits; a host without it is taken to impose none. */
export function hostHardLimits(): HardLimits {
  if (hostLimits) return hostLimits;
  let text = '';
  try {
    text = readFileSync('/proc/self/limits', 'utf8');
  } catch {
    // not Linux: nothing known
  }
  const hardOf = (label: string) => {
    const line = text.split('\n').find((each) => each.startsWith(label));
    const value = line?.slice(label.length).trim().split(/\s+/)[1];
    return value === undefined || value === 'unlimited' || !/^\d+$/.test(value) ? Infinity : Number(value);
  };
  hostLimits = {
    processes: hardOf('Max processes'),
    data: hardOf('Max data size'),
    fileSize: hardOf('Max file size'),
  };
  return hostLimits;
}

let runtimeData: number | null = null;

/**
 * The data segment this Node maps before it runs any code, in bytes, measured once in a Node that
 * does nothing (VmData). It is address space rather than memory in use: since Node 24, V8 maps its
 * whole 512 MiB code range writable at start (where the CPU lacks protection keys), so an rlimit of
 * `memoryMb` alone would stop every app before its first line. 0 when it cannot be read.
 */
export function runtimeDataBytes(): number {
  if (runtimeData !== null) return runtimeData;
  const probe = spawnSync(process.execPath, ['-e', "process.stdout.write(require('fs').readFileSync('/proc/self/status', 'utf8'))"], {
    env: {},
    encoding: 'utf8',
    timeout: 10_000,
  });
  const kib = /^VmData:\s+(\d+) kB$/m.exec(probe.stdout ?? '')?.[1];
  runtimeData = kib === undefined ? 0 : Number(kib) * 1024;
  return runtimeData;
}

/** The tmpfs size of the app's folder and of its `/tmp`, in bytes. */
export function diskBytes(limits: AppLimits): number {
  return limits.diskMb * MIB;
}

/** What the gate is told to watch (see sandbox-gate.cjs). */
export function watchedLimits(limits: AppLimits, diskPaths: ReadonlyArray<string>) {
  return {
    processes: limits.processes,
    memoryBytes: limits.memoryMb * MIB,
    cpuSecondsPerMinute: limits.cpuSecondsPerMinute,
    diskPaths,
    everyMs: limits.watchMs,
  };
}

/** The limit's size as its owner reads it. */
export function limitSize(limit: SandboxLimit, limits: AppLimits): string {
  switch (limit) {
    case 'processes':
      return `${limits.processes} processes and threads`;
    case 'memory':
      return `${limits.memoryMb} MiB of memory`;
    case 'cpu':
      return `${limits.cpuSecondsPerMinute} s of CPU time a minute`;
    case 'disk':
      return `${limits.diskMb} MiB of disk`;
  }
}

/** What a program prints when an allocation fails (Node 20 to 24, V8, glibc, C++ and most runtimes). */
const OUT_OF_MEMORY =
  /out of memory|allocation failed|failed to allocate|cannot allocate memory|\bENOMEM\b|MEMORY_ALLOCATION_FAILED|bad_alloc|MemoryError/i;

/**
 * The limit an app that ended by itself ran into, read from how it ended: SIGXCPU (CPU time),
 * SIGXFSZ (file size), or a failed allocation in its last words (its data-segment rlimit); null otherwise.
 */
export function limitOfExit(signal: string | null, lastWords: string): SandboxLimit | null {
  if (signal === 'SIGXCPU') return 'cpu';
  if (signal === 'SIGXFSZ') return 'disk';
  if (OUT_OF_MEMORY.test(lastWords.slice(-4000))) return 'memory';
  return null;
}
