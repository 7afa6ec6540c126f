import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdir, rm } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { EgressResolver } from '../../adapters/sandbox/egress/egress-proxy.js';
import { listeningProxy, type ListeningProxy } from './listening-proxy.js';
import { egressEnvironment } from '../../adapters/sandbox/egress/egress-environment.js';
import { normaliseHost, type EgressRule } from '../../adapters/sandbox/egress/egress-rules.js';
import { freePort } from './http-server.js';
import type { ServerStream } from './sandbox-e2b-connect.js';

/** The network part of e2b's NewSandbox / SandboxNetworkUpdateConfig, as far as this server models it. */
export interface FakeNetwork {
  allowOut?: string[];
  denyOut?: string[];
  allowPublicTraffic?: boolean;
  allowInternetAccess?: boolean;
}

export interface ProcessConfig {
  cmd: string;
  args?: string[];
  envs?: Record<string, string>;
  cwd?: string;
}

interface RunningProcess {
  readonly config: ProcessConfig;
  readonly child: ChildProcess;
}

const randomId = (length: number) => randomBytes(length).toString('hex').slice(0, length);

/**
 * One sandbox of the local e2b stand-in: a directory standing for its filesystem, real processes,
 * and two simulations of what a microVM gives for free, both documented here because they are
 * where this double differs from e2b:
 * - its own network namespace: a process started with `PORT=<p>` really listens on a free host
 *   port, and traffic for sandbox port p is sent there;
 * - its firewall: with `denyOut: ["0.0.0.0/0"]` the processes it starts go through a filtering
 *   proxy (Porter's local egress proxy) that admits only `allowOut` entries.
 * Pausing stops its processes (this double keeps no memory image); files survive.
 */
export class FakeE2bSandbox {
  readonly id = `i${randomId(19)}`;
  readonly envdAccessToken = `ea_${randomId(24)}`;
  readonly trafficAccessToken: string | undefined;
  readonly startedAt = new Date();
  state: 'running' | 'paused' = 'running';
  readonly ports = new Map<number, number>();
  readonly processes = new Map<number, RunningProcess>();
  private proxy: ListeningProxy | null = null;

  constructor(
    readonly root: string,
    readonly templateID: string,
    readonly metadata: Record<string, string>,
    public network: FakeNetwork,
    readonly envVars: Record<string, string>,
    readonly timeoutSeconds: number,
    private readonly resolve: EgressResolver,
  ) {
    this.trafficAccessToken = network.allowPublicTraffic === false ? `ta_${randomId(24)}` : undefined;
  }

  get endAt(): Date {
    return new Date(this.startedAt.getTime() + this.timeoutSeconds * 1000);
  }

  /** A sandbox path (absolute, or relative to the user's home) inside this sandbox's directory. */
  path(path: string): string {
    const absolute = posix.normalize(path.startsWith('/') ? path : `/home/user/${path}`);
    if (absolute.split('/').includes('..')) throw new Error(`path escapes the sandbox: ${path}`);
    return join(this.root, absolute);
  }

  async prepare(fromSnapshot?: string): Promise<void> {
    if (fromSnapshot) await cp(fromSnapshot, this.root, { recursive: true, verbatimSymlinks: true });
    await mkdir(join(this.root, 'home', 'user'), { recursive: true });
  }

  /** e2b's firewall: with all traffic denied, only allowOut entries pass (`*.x` matches subdomains of x). */
  egressRule(): EgressRule {
    const restricted = this.network.allowInternetAccess === false || (this.network.denyOut ?? []).includes('0.0.0.0/0');
    if (!restricted) return () => true;
    const allowed = (this.network.allowOut ?? []).map((entry) => entry.toLowerCase());
    return (host) => {
      const name = normaliseHost(host);
      return allowed.some((entry) => (entry.startsWith('*.') ? name.endsWith(entry.slice(1)) : normaliseHost(entry) === name));
    };
  }

  /** envd's process.Start: runs the command, streams start, output and end events. */
  async startProcess(config: ProcessConfig, stream: ServerStream, keepaliveSeconds: number): Promise<void> {
    const env: Record<string, string> = {
      PATH: '/usr/local/bin:/usr/bin:/bin',
      HOME: this.path('/home/user'),
      USER: 'user',
      LANG: 'C.UTF-8',
      ...this.envVars,
      ...config.envs,
    };
    if (env.PORT) {
      const hostPort = await freePort();
      this.ports.set(Number(env.PORT), hostPort);
      env.PORT = String(hostPort);
    }
    if (this.isRestricted()) {
      this.proxy ??= await listeningProxy({ rule: () => this.egressRule(), resolve: this.resolve });
      Object.assign(env, egressEnvironment(this.proxy.address));
    }
    const child = spawn(config.cmd, config.args ?? [], {
      cwd: this.path(config.cwd ?? '/home/user'),
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const spawned = await new Promise<Error | null>((resolve) => {
      child.once('spawn', () => resolve(null));
      child.once('error', resolve);
    });
    if (spawned) throw spawned;
    const pid = child.pid!;
    this.processes.set(pid, { config, child });
    stream.send({ event: { start: { pid } } });
    child.stdout!.on('data', (chunk: Buffer) => stream.send({ event: { data: { stdout: chunk.toString('base64') } } }));
    child.stderr!.on('data', (chunk: Buffer) => stream.send({ event: { data: { stderr: chunk.toString('base64') } } }));
    const keepalive =
      keepaliveSeconds > 0 ? setInterval(() => stream.send({ event: { keepalive: {} } }), keepaliveSeconds * 1000) : undefined;
    child.once('close', (code, signal) => {
      clearInterval(keepalive);
      this.processes.delete(pid);
      const exitCode = code ?? -1;
      stream.send({
        event: {
          end: {
            exitCode,
            exited: code !== null,
            status: signal ? `signal: ${signal === 'SIGKILL' ? 'killed' : signal}` : `exit status ${exitCode}`,
          },
        },
      });
      stream.end();
    });
  }

  isRestricted(): boolean {
    return this.network.allowInternetAccess === false || (this.network.denyOut ?? []).includes('0.0.0.0/0');
  }

  signal(pid: number, signal: NodeJS.Signals): boolean {
    const running = this.processes.get(pid);
    if (!running) return false;
    running.child.kill(signal);
    return true;
  }

  /** Stops everything (pause, kill): whole process groups, as a VM stopping would. */
  async stopAll(): Promise<void> {
    const exits = [...this.processes.values()].map(
      ({ child }) =>
        new Promise<void>((resolve) => {
          child.once('close', () => resolve());
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            resolve();
          }
        }),
    );
    await Promise.all(exits);
    this.ports.clear();
    await this.proxy?.close();
    this.proxy = null;
  }

  async destroy(): Promise<void> {
    await this.stopAll();
    await rm(this.root, { recursive: true, force: true });
  }
}
