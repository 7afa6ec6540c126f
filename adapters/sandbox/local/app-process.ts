import { spawn, type ChildProcess } from 'node:child_process';
import { access, stat } from 'node:fs/promises';
import { constants } from 'node:fs';
import { join } from 'node:path';
import { OutputTail } from '../output-tail.js';
import { acceptsConnections, delay } from '../net-probe.js';
import { SandboxServerFailed } from '../sandbox-errors.js';

/** What the spec's boot rule runs: `start.sh`, or `node server.js`. */
export interface BootCommand {
  readonly command: string;
  readonly args: ReadonlyArray<string>;
}

/** What is actually spawned: the boot command itself, or something that runs it (a namespace). */
export interface Launch {
  readonly command: string;
  readonly args: ReadonlyArray<string>;
  /** The whole environment of the spawned process: nothing of the parent's is inherited. */
  readonly env: Readonly<Record<string, string>>;
  /** Written to its stdin, which is then closed; without it stdin is /dev/null. */
  readonly input?: string;
}

export interface AppProcessSpec {
  /** The app's directory; `/app` inside the sandbox. It is also the working directory. */
  readonly directory: string;
  /** Where Porter reaches the server on this host's loopback. */
  readonly port: number;
  /** The server's whole environment: nothing of the parent's is inherited. */
  readonly env: Readonly<Record<string, string>>;
  readonly startTimeoutMs: number;
  /** Told the process group's id as soon as it exists (before it listens). */
  readonly onSpawn?: (pid: number) => Promise<void>;
  /** Runs the boot command some other way (in a network namespace); by default it is spawned as is. */
  readonly wrap?: (boot: BootCommand, env: Readonly<Record<string, string>>) => Launch;
  /** Whether the server accepts connections; by default a TCP connect to 127.0.0.1:port. */
  readonly listening?: () => Promise<boolean>;
}

const STOP_GRACE_MS = 2000;
const PROBE_EVERY_MS = 40;

/**
 * One run of an app server: a process group of its own (so stopping it takes every child the
 * start script spawned), output kept as a bounded tail, and a start that only counts once the
 * server accepts connections on its port.
 */
export class AppProcess {
  private exited = false;
  private readonly exit: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    readonly output: OutputTail,
    private readonly probe: () => Promise<boolean>,
  ) {
    this.exit = new Promise((resolve) => {
      child.once('exit', () => {
        this.exited = true;
        resolve();
      });
    });
  }

  /** Boots `start.sh` when present, else `node server.js`; resolves once it listens on the port. */
  static async launch(spec: AppProcessSpec): Promise<AppProcess> {
    const boot = await bootCommand(spec.directory);
    const launch: Launch = spec.wrap ? spec.wrap(boot, spec.env) : { ...boot, env: spec.env };
    const output = new OutputTail();
    const child = spawn(launch.command, [...launch.args], {
      cwd: spec.directory,
      env: { ...launch.env },
      detached: true,
      stdio: [launch.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (launch.input !== undefined) {
      child.stdin!.on('error', () => undefined); // a process that died at once; its exit says why
      child.stdin!.end(launch.input);
    }
    child.stdout!.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk));
    const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
    const running = new AppProcess(child, spec.port, output, spec.listening ?? (() => acceptsConnections(spec.port, '127.0.0.1', 500)));
    if (child.pid !== undefined) await spec.onSpawn?.(child.pid);
    const deadline = Date.now() + spec.startTimeoutMs;
    for (;;) {
      if (running.exited) {
        // Whatever the leader started before dying (a start.sh helper) goes with it.
        await running.stop();
        throw new SandboxServerFailed('exited', output.text());
      }
      if (await running.probe()) {
        // Listening, unless the process died in the same instant (then the port is someone else's).
        if (!running.exited) return running;
      }
      const failed = await Promise.race([spawnError, delay(PROBE_EVERY_MS).then(() => null)]);
      if (failed) throw new SandboxServerFailed('exited', `${output.text()}\n${failed.message}`.trim());
      if (Date.now() > deadline) {
        await running.stop();
        throw new SandboxServerFailed('timeout', output.text());
      }
    }
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** Whether the server accepts connections right now. */
  async listening(): Promise<boolean> {
    return !this.exited && (await this.probe());
  }

  /** SIGTERM to the whole group, SIGKILL to what is left after a grace period. */
  async stop(): Promise<void> {
    const pid = this.child.pid;
    if (pid === undefined) return;
    if (!this.exited) signalGroup(pid, 'SIGTERM');
    await Promise.race([this.exit, delay(STOP_GRACE_MS)]);
    // Children the script started may outlive the leader; the group takes them too.
    signalGroup(pid, 'SIGKILL');
    await this.exit;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** The spec's boot rule: `/app/start.sh` if present (run directly when executable), else `node /app/server.js`. */
async function bootCommand(directory: string): Promise<BootCommand> {
  const script = join(directory, 'start.sh');
  const info = await stat(script).catch(() => null);
  if (info?.isFile()) {
    const executable = await access(script, constants.X_OK).then(
      () => true,
      () => false,
    );
    return executable ? { command: script, args: [] } : { command: '/bin/sh', args: [script] };
  }
  return { command: process.execPath, args: [join(directory, 'server.js')] };
}
