import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EgressPolicy } from '../../../ports/sandbox.js';
import { EGRESS_PRELOAD_PATH, egressEnvironment } from '../egress/egress-environment.js';
import { freePort } from '../net-probe.js';
import { appSandboxCommand, gateSandbox, INSIDE, type HostIdentity } from './bubblewrap-command.js';
import { diskBytes, prlimitOptions, watchedLimits, type AppLimits } from './app-limits.js';
import { GateProcess, type GateBoot, type GateSpawn, type PackedEntry } from './gate-process.js';
import { UNSHARE_FLAGS, type NamespaceTools } from './network-namespace.js';
import { seccompFilter } from './seccomp-filter.js';

/** The program every sandbox runs first (see sandbox-gate.cjs). */
export const SANDBOX_GATE_PATH = fileURLToPath(new URL('./sandbox-gate.cjs', import.meta.url));

/** In a network namespace of the app's own, the numbers are free: these never meet the host's. */
const APP_PORT = 8080;
const PROXY_PORT = 3128;

/** What a start gives the launcher to boot an app. */
export interface AppStart {
  readonly entries: ReadonlyArray<PackedEntry>;
  readonly egress: EgressPolicy | null;
  /** Where the files go outside bubblewrap (a fresh folder of the host's per start). */
  readonly runtime: string;
  /** The app's `/tmp` outside bubblewrap. */
  readonly temp: string;
}

/**
 * How gates are started on this machine, and what each is told to boot. Gates are spawned ahead
 * (a warm one waits for the next start), so a start costs the app's own boot and little else.
 */
export interface GateLauncher {
  readonly kind: 'bubblewrap' | 'unshare' | 'plain';
  /** Whether a start needs a host folder of its own (`runtime`, `temp`): outside bubblewrap only. */
  readonly usesHostFolders: boolean;
  /** A gate, warm when one is ready. */
  take(): GateProcess;
  /** Fills the warm places (apps are about to be served, or a start just took one). */
  warmUp(): void;
  boot(start: AppStart): Promise<GateBoot>;
  /** Ends the warm gates (at shutdown). */
  close(): Promise<void>;
}

const REFILL_AFTER_MS = 100;

/** Keeps `size` gates spawned and waiting, replacing each one taken. */
class WarmGates {
  private readonly ready: GateProcess[] = [];
  private closed = false;
  private filling = false;

  constructor(
    private readonly spawn: () => GateProcess,
    private readonly size: number,
  ) {}

  /** A waiting gate, or a new one; the place it leaves is filled by the next `refill`. */
  take(): GateProcess {
    let gate = this.ready.shift();
    while (gate && !gate.alive) gate = this.ready.shift();
    return gate ?? this.spawn();
  }

  /**
   * Called once a start is over, and spawns a little later: a spawn (a fork of this process) beside
   * a start, or the snapshot that usually follows one, would slow them down.
   */
  refill(): void {
    if (this.filling || this.closed) return;
    this.filling = true;
    setTimeout(() => {
      this.filling = false;
      while (!this.closed && this.ready.length < this.size) this.ready.push(this.spawn());
    }, REFILL_AFTER_MS).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.ready.splice(0).map((gate) => gate.stop()));
  }
}

/** The scripts bubblewrap copies into each sandbox, read once. */
let scripts: { gate: string; preload: string } | null = null;
const sandboxScripts = () =>
  (scripts ??= { gate: readFileSync(SANDBOX_GATE_PATH, 'utf8'), preload: readFileSync(EGRESS_PRELOAD_PATH, 'utf8') });

export interface BubblewrapLauncherOptions {
  readonly bwrap: string;
  readonly prlimit: string;
  /** coreutils `nice`, when the host has it: app servers then yield the CPU to the host. */
  readonly nice: string | null;
  readonly identity: HostIdentity | null;
  readonly limits: AppLimits;
  readonly warm: number;
}

/**
 * Under bubblewrap: the gate in a sandbox of its own (its own network, nothing of the host's
 * files), the app in a sandbox nested in it with its limits and seccomp filter (bubblewrap-command.ts).
 */
export class BubblewrapLauncher implements GateLauncher {
  readonly kind = 'bubblewrap' as const;
  readonly usesHostFolders = false;
  private readonly warm: WarmGates;
  private readonly seccomp: Buffer;

  constructor(private readonly options: BubblewrapLauncherOptions) {
    const filter = seccompFilter();
    if (!filter) throw new Error(`no seccomp filter for ${process.arch}`);
    this.seccomp = filter;
    const sandbox = gateSandbox(sandboxScripts(), diskBytes(options.limits));
    const how: GateSpawn = { command: options.bwrap, args: sandbox.args, identity: options.identity, files: sandbox.files };
    this.warm = new WarmGates(() => GateProcess.spawn(how), options.warm);
  }

  take(): GateProcess {
    return this.warm.take();
  }

  warmUp(): void {
    this.warm.refill();
  }

  async boot(start: AppStart): Promise<GateBoot> {
    const { limits } = this.options;
    return {
      root: INSIDE.app,
      cwd: INSIDE.app,
      files: start.entries,
      command: appSandboxCommand(this.options, prlimitOptions(limits), bootCommand(start.entries, INSIDE.app)),
      env: {
        PATH: [...new Set([dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'])].join(':'),
        HOME: INSIDE.app,
        TMPDIR: INSIDE.tmp,
        ...appEnvironment(APP_PORT),
        ...egressEnvironment(`127.0.0.1:${PROXY_PORT}`, INSIDE.preload),
      },
      port: APP_PORT,
      proxyPort: PROXY_PORT,
      inner: true,
      seccomp: this.seccomp,
      limits: watchedLimits(limits, [INSIDE.app, INSIDE.tmp]),
    };
  }

  close(): Promise<void> {
    return this.warm.close();
  }
}

/**
 * Without containment (`containment: 'none'`): the gate and the app are plain processes of the
 * host's user in a folder of the host's. With `tools`, in a network namespace made by `unshare`
 * (for apps with an egress policy); otherwise on the host's network.
 */
export class UncontainedLauncher implements GateLauncher {
  readonly kind: 'unshare' | 'plain';
  readonly usesHostFolders = true;
  private readonly warm: WarmGates;

  constructor(private readonly tools: NamespaceTools | null) {
    this.kind = tools ? 'unshare' : 'plain';
    const how: GateSpawn = tools
      ? { command: tools.unshare, args: [...UNSHARE_FLAGS, '--', process.execPath, SANDBOX_GATE_PATH], appGroupOnHost: true }
      : { command: process.execPath, args: [SANDBOX_GATE_PATH], appGroupOnHost: true };
    this.warm = new WarmGates(() => GateProcess.spawn(how), 1);
  }

  take(): GateProcess {
    return this.warm.take();
  }

  warmUp(): void {
    this.warm.refill();
  }

  async boot(start: AppStart): Promise<GateBoot> {
    const namespaced = this.tools !== null;
    const port = namespaced ? APP_PORT : await freePort();
    const proxyPort = namespaced ? PROXY_PORT : start.egress ? await freePort() : null;
    return {
      root: start.runtime,
      cwd: start.runtime,
      files: start.entries,
      command: bootCommand(start.entries, start.runtime),
      env: {
        PATH: [dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
        HOME: start.runtime,
        TMPDIR: start.temp,
        ...appEnvironment(port),
        ...(proxyPort ? egressEnvironment(`127.0.0.1:${proxyPort}`) : {}),
      },
      port,
      proxyPort,
      ip: this.tools?.ip ?? null,
      limits: null,
    };
  }

  close(): Promise<void> {
    return this.warm.close();
  }
}

/** What every app server is told: its port, to bind loopback only (Porter is its only client), and the rest of a sane environment. */
function appEnvironment(port: number): Record<string, string> {
  return { LANG: 'C.UTF-8', NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1' };
}

/** The spec's boot rule: `start.sh` when present (run directly when executable), else `node server.js`. */
function bootCommand(entries: ReadonlyArray<PackedEntry>, root: string): string[] {
  const script = entries.find((entry) => entry.path === 'start.sh' && entry.kind === 'file');
  if (script) return (script.mode ?? 0) & 0o111 ? [join(root, 'start.sh')] : ['/bin/sh', join(root, 'start.sh')];
  return [process.execPath, join(root, 'server.js')];
}
