import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { Socket } from 'node:net';
import type { Writable } from 'node:stream';
import { OutputTail } from '../output-tail.js';
import { delay } from '../net-probe.js';
import { SandboxServerFailed } from '../sandbox-errors.js';
import type { SandboxLimit } from '../../../ports/sandbox.js';
import { defined } from '../../../domain/defined.js';

/** How to spawn one gate (see sandbox-gate.cjs): under bubblewrap, under `unshare`, or plainly. */
export interface GateSpawn {
  readonly command: string;
  readonly args: ReadonlyArray<string>;
  /** The host identity to run it as (a root host's sandboxes run as nobody); the host's own when absent. */
  readonly identity?: { readonly uid: number; readonly gid: number } | null;
  /** Written, in order, to the child's fds 4, 5, … and closed (bwrap's `--file`). */
  readonly files?: ReadonlyArray<{ readonly content: string }>;
  /**
   * Outside bubblewrap the app is a process group on the host, which a killed gate would leave
   * behind: the host ends that group itself. (Under bubblewrap the sandbox takes everything with it.)
   */
  readonly appGroupOnHost?: boolean;
}

/** A file of the app, as the gate unpacks it. */
export interface PackedEntry {
  readonly path: string;
  readonly kind: 'file' | 'dir' | 'link';
  readonly mode?: number;
  readonly data?: Uint8Array;
  readonly target?: string;
}

/** What the gate needs to start the app (sandbox-gate.cjs reads exactly this). */
export interface GateBoot {
  /** Where the files go: `/app` inside bubblewrap, a folder of the host's otherwise. */
  readonly root: string;
  readonly files: ReadonlyArray<PackedEntry>;
  readonly command: ReadonlyArray<string>;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly port: number;
  /** Where the app's egress is accepted inside its network (null: it has no proxy). */
  readonly proxyPort: number | null;
  /** `ip`, to bring loopback up in a namespace made by `unshare`. */
  readonly ip?: string | null;
  /** The app runs in a nested sandbox (bubblewrap): its seccomp program goes to that sandbox's fd 3. */
  readonly inner?: boolean;
  readonly seccomp?: Uint8Array | null;
  readonly limits?: {
    readonly processes: number;
    readonly memoryBytes: number;
    readonly cpuSecondsPerMinute: number;
    readonly diskPaths: ReadonlyArray<string>;
    readonly everyMs: number;
  } | null;
}

/** The gate stopped the app for crossing a limit. */
export interface LimitCrossing {
  readonly limit: SandboxLimit;
  readonly used: number;
  readonly max: number;
}

export interface GateEvents {
  /** A connection the app opened towards its egress port: the host's proxy takes it. */
  readonly onEgress: (socket: Socket) => void;
  /** The app crossed a limit and was stopped. */
  readonly onLimit: (crossing: LimitCrossing) => void;
  /** The gate (and so the app) ended, for whatever reason. */
  readonly onExit: () => void;
}

const CONNECT_TIMEOUT_MS = 5000;
/**
 * How long output held open by a process that outlived the gate is waited for. Generous: on a busy
 * host the exit can be heard a while before the app's last words are read, and they say why it ended.
 */
const OUTPUT_GRACE_MS = 1500;
/** How many connections out one app may hold open at once. */
const MAX_EGRESS_CONNECTIONS = 256;
const LIMITS: ReadonlyArray<SandboxLimit> = ['processes', 'memory', 'cpu', 'disk'];

interface Pending<T> {
  resolve(value: T): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * The host's side of one gate: the process, its channel, and the requests in flight over it.
 * Everything the gate says is checked before it is believed; the gate lives with the app.
 */
export class GateProcess {
  readonly output = new OutputTail();
  private events: GateEvents | null = null;
  private readonly connects = new Map<number, Pending<Socket>>();
  private readonly probes = new Map<number, Pending<boolean>>();
  private nextId = 1;
  private egressOpen = 0;
  private listening = false;
  private exitInfo: { code: number | null; signal: string | null } | null = null;
  private failure: string | null = null;
  private crossing: LimitCrossing | null = null;
  /** The process exited; `exit`: and its output has been read (or has stopped coming). */
  private readonly exited: Promise<void>;
  private readonly exit: Promise<void>;
  private bootWaiter: Pending<void> | null = null;

  /** The app's host pid, as the gate reported it (outside bubblewrap only). */
  private appPid: number | null = null;
  /** Set once the sandbox is being ended: an app the gate reports after that is ended on arrival. */
  private stopping = false;

  private constructor(
    private readonly child: ChildProcess,
    private readonly appGroupOnHost: boolean,
  ) {
    // Ended once it exited and its output has been read (an app's last words say why it ended);
    // output held open by a process that outlived it is waited for briefly, not forever.
    this.exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    this.exit = this.exited.then(() => Promise.race([closed, delay(OUTPUT_GRACE_MS)]));
    child.stdout?.on('data', (chunk: Buffer) => this.output.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => this.output.push(chunk));
    child.on('message', (message: unknown, handle: unknown) => this.heard(message, handle));
    child.once('error', (error) => {
      this.failure ??= error.message;
      this.ended();
    });
    child.once('exit', (code, signal) => {
      this.exitInfo ??= { code, signal };
      this.listening = false;
      void this.exit.then(() => this.ended());
    });
  }

  /** Spawns a gate; it waits for its `boot` (a warm sandbox until then). */
  static spawn(how: GateSpawn): GateProcess {
    const files = how.files ?? [];
    const child = spawn(how.command, [...how.args], {
      cwd: '/',
      env: {},
      stdio: ['ignore', 'pipe', 'pipe', 'ipc', ...files.map(() => 'pipe' as const)],
      serialization: 'advanced',
      ...defined({ uid: how.identity?.uid, gid: how.identity?.gid }),
    });
    files.forEach((file, index) => {
      const pipe = child.stdio[4 + index] as Writable | null;
      pipe?.on('error', () => undefined); // a gate that died at once; its exit says why
      pipe?.end(file.content);
    });
    // A gate never keeps the host alive on its own: the host's shutdown (closeAll) ends every one.
    child.unref();
    (child.channel as { unref?: () => void } | undefined)?.unref?.();
    for (const pipe of [child.stdout, child.stderr]) (pipe as { unref?: () => void } | null)?.unref?.();
    return new GateProcess(child, how.appGroupOnHost ?? false);
  }

  get alive(): boolean {
    return this.exitInfo === null && this.failure === null;
  }

  /** Settles once the gate has exited and its output has been read (its end has been told). */
  get finished(): Promise<void> {
    return this.exit.then(() => undefined);
  }

  /** The sandbox's host pid (bwrap's, under bubblewrap). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Unpacks the files and starts the app; resolves once it listens, rejects with the tail of its output otherwise. */
  boot(settings: GateBoot, events: GateEvents, timeoutMs: number): Promise<void> {
    this.events = events;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.bootWaiter = null;
        void this.stop();
        reject(new SandboxServerFailed('timeout', this.output.text()));
      }, timeoutMs);
      this.bootWaiter = { resolve, reject, timer };
      if (!this.alive) return this.settleBoot();
      this.child.send({ type: 'boot', settings }, (error) => {
        if (error) {
          this.failure ??= error.message;
          this.settleBoot();
        }
      });
    });
  }

  /** A fresh connection to the app server's port inside its sandbox. */
  connect(): Promise<Socket> {
    return this.ask(this.connects, (id) => ({ type: 'connect', id }));
  }

  /** Whether the app server accepts connections right now. */
  async probe(): Promise<boolean> {
    if (!this.alive || !this.listening) return false;
    return this.ask(this.probes, (id) => ({ type: 'probe', id })).catch(() => false);
  }

  /** Ends the sandbox and everything in it at once; resolves when the gate has gone. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.child.exitCode === null && this.child.signalCode === null) {
      // Awaited now: the exit must keep the host alive until it comes.
      this.child.ref();
      // Under bubblewrap the whole sandbox goes with bwrap (--die-with-parent down the line).
      if (this.appGroupOnHost && this.appPid !== null) signalGroup(this.appPid);
      try {
        this.child.kill('SIGKILL');
      } catch {
        // gone
      }
    } else if (this.appGroupOnHost && this.appPid !== null) signalGroup(this.appPid);
    await this.exited;
  }

  /** The limit the app was stopped for, if it was. */
  get limitCrossed(): LimitCrossing | null {
    return this.crossing;
  }

  private ask<T>(table: Map<number, Pending<T>>, message: (id: number) => object): Promise<T> {
    if (!this.alive) return Promise.reject(new Error('the app sandbox has ended'));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        table.delete(id);
        reject(new Error('the app sandbox did not answer'));
      }, CONNECT_TIMEOUT_MS);
      table.set(id, { resolve, reject, timer });
      this.child.send(message(id), (error) => {
        if (!error) return;
        clearTimeout(timer);
        table.delete(id);
        reject(error);
      });
    });
  }

  private heard(message: unknown, handle: unknown): void {
    if (!message || typeof message !== 'object') return destroy(handle);
    const said = message as Record<string, unknown>;
    switch (said.type) {
      case 'listening':
        this.listening = true;
        return this.settleBoot();
      case 'spawned':
        if (this.appGroupOnHost && Number.isInteger(said.pid) && (said.pid as number) > 1) {
          this.appPid = said.pid as number;
          // Reported after the stop (a start that timed out on a busy host, the gate killed while
          // its message was on the way): the stop could not name the group, so end it now.
          if (this.stopping) signalGroup(this.appPid);
        }
        return destroy(handle);
      case 'egress':
        if (!(handle instanceof Socket) || !this.events || this.egressOpen >= MAX_EGRESS_CONNECTIONS) return destroy(handle);
        // Each is a descriptor of the host's own: an app opening connections without end would use them all up.
        this.egressOpen++;
        handle.once('close', () => this.egressOpen--);
        return this.events.onEgress(handle);
      case 'connected':
        return this.answer(this.connects, said.id, handle instanceof Socket ? handle : null, 'no socket');
      case 'connect-failed':
        return this.answer(this.connects, said.id, null, `the app server refused the connection (${String(said.code).slice(0, 40)})`);
      case 'probed':
        return this.answer(this.probes, said.id, said.ok === true, '');
      case 'limit':
        if (LIMITS.includes(said.limit as SandboxLimit) && typeof said.max === 'number' && typeof said.used === 'number') {
          this.crossing ??= { limit: said.limit as SandboxLimit, used: said.used, max: said.max };
          this.events?.onLimit(this.crossing);
        }
        return destroy(handle);
      case 'exited':
        this.exitInfo ??= { code: numberOrNull(said.code), signal: typeof said.signal === 'string' ? said.signal.slice(0, 20) : null };
        return destroy(handle);
      case 'failed':
        this.failure ??= String(said.message).slice(0, 2000);
        return destroy(handle);
      default:
        return destroy(handle);
    }
  }

  private answer<T>(table: Map<number, Pending<T>>, id: unknown, value: T | null, refusal: string): void {
    const pending = typeof id === 'number' ? table.get(id) : undefined;
    if (!pending) return destroy(value);
    table.delete(id as number);
    clearTimeout(pending.timer);
    if (value === null) pending.reject(new Error(refusal));
    else pending.resolve(value);
  }

  private ended(): void {
    this.listening = false;
    for (const table of [this.connects, this.probes] as Map<number, Pending<unknown>>[]) {
      for (const pending of table.values()) {
        clearTimeout(pending.timer);
        pending.reject(new Error('the app sandbox has ended'));
      }
      table.clear();
    }
    this.settleBoot();
    if (this.child.exitCode !== null || this.child.signalCode !== null) this.events?.onExit();
  }

  /** Resolves or rejects the boot in flight, from what is known now. */
  private settleBoot(): void {
    const waiter = this.bootWaiter;
    if (!waiter) return;
    if (this.listening && this.alive) {
      this.bootWaiter = null;
      clearTimeout(waiter.timer);
      return waiter.resolve();
    }
    if (this.alive) return;
    this.bootWaiter = null;
    clearTimeout(waiter.timer);
    // Output may still be arriving on the pipes: wait for the end of it, then read the tail.
    void this.exit.then(() => {
      const detail = [this.output.text(), this.failure ? `porter sandbox gate: ${this.failure}` : ''].filter(Boolean).join('\n');
      waiter.reject(new SandboxServerFailed('exited', detail));
    });
  }

  /** How the app ended: its signal (bwrap reports a child's signal as 128 + its number), or null. */
  get endedBySignal(): string | null {
    const info = this.exitInfo;
    if (!info) return null;
    if (info.signal) return info.signal;
    if (info.code !== null && info.code > 128) {
      const found = Object.entries(constants.signals).find(([, number]) => number === info.code! - 128);
      return found?.[0] ?? null;
    }
    return null;
  }
}

/** Ends an app's process group on the host (outside bubblewrap), whatever is left of it. */
function signalGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

function destroy(handle: unknown): void {
  if (handle instanceof Socket) handle.destroy();
}
