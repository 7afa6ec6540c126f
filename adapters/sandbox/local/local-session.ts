import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { EgressPolicy, SandboxFile, SandboxSession } from '../../../ports/sandbox.js';
import { checkedRequestPath } from '../app-paths.js';
import { EgressProxy, type EgressResolver } from '../egress/egress-proxy.js';
import { egressEnvironment } from '../egress/egress-environment.js';
import { ruleFor, samePolicy } from '../egress/egress-rules.js';
import { freePort } from '../net-probe.js';
import { SerialQueue } from '../serial-queue.js';
import { SandboxServerFailed, SandboxServerNotRunning } from '../sandbox-errors.js';
import { AppProcess } from './app-process.js';
import { writeAppFiles } from './app-files.js';
import { DirectorySnapshots } from './directory-snapshots.js';
import { ServerRecord } from './stale-server.js';
import { removeTree } from './remove-tree.js';
import { NamespaceLink, type NamespaceMaker } from './namespace-link.js';
import { INSIDE } from './bubblewrap-command.js';
import type { PooledServer, ServerPool } from './server-pool.js';

export interface LocalSessionPlaces {
  /** The app's directory: `/app`. */
  readonly directory: string;
  readonly snapshots: string;
  readonly staging: string;
  readonly temp: string;
  /** Where the running server's pid is recorded (see ServerRecord). */
  readonly pidFile: string;
}

export interface LocalSessionSettings {
  readonly startTimeoutMs: number;
  readonly resolve?: EgressResolver;
  /**
   * `bubblewrap`: every server runs contained, in a network namespace of its own. `unshare`: a
   * policy-bound server runs in a network namespace of its own. Absent: cooperative egress.
   */
  readonly maker?: NamespaceMaker;
  /** Caps the live servers and stops idle ones. */
  readonly pool: ServerPool;
}

/** A port taken between our probe and the server's bind shows up as this in its output. */
const PORT_RACE = /EADDRINUSE/;

/** What LocalSandboxSession is built from. */
export interface LocalSandboxSessionDeps {
  readonly id: string;
  readonly places: LocalSessionPlaces;
  readonly egress: EgressPolicy | null;
  readonly settings: LocalSessionSettings;
  readonly onClose: () => void;
  /** Whose servers this one counts among (the app's owner, when the opener said). */
  readonly owner?: string;
}

/**
 * One app's sandbox on this machine: its directory, its server process and its own filtering
 * proxy — reached from a network namespace of the server's own (a NamespaceLink): always under
 * bubblewrap, else for an app with an egress policy where the machine allows it; otherwise from
 * the host's loopback. Operations run one at a time.
 */
export class LocalSandboxSession implements SandboxSession, PooledServer {
  private server: AppProcess | null = null;
  /** The cooperative mode's proxy, on host loopback. */
  private proxy: EgressProxy | null = null;
  /** The namespace mode's link: proxy and door behind Unix sockets. */
  private link: NamespaceLink | null = null;
  private readonly queue = new SerialQueue();
  private readonly snapshots: DirectorySnapshots;
  private readonly record: ServerRecord;

  readonly id: string;
  private readonly places: LocalSessionPlaces;
  private egress: EgressPolicy | null;
  private readonly settings: LocalSessionSettings;
  private readonly onClose: () => void;
  owner: string | undefined;

  constructor(deps: LocalSandboxSessionDeps) {
    this.id = deps.id;
    this.places = deps.places;
    this.egress = deps.egress;
    this.settings = deps.settings;
    this.onClose = deps.onClose;
    this.owner = deps.owner;
    const { places, egress } = deps;
    ruleFor(egress); // refuses a malformed policy before anything runs
    this.snapshots = new DirectorySnapshots(places.directory, places.snapshots, places.staging);
    this.record = new ServerRecord(places.pidFile, places.directory);
  }

  /** A new policy from a reopen: domain changes apply at once; gaining or losing one restarts a running server. */
  async applyEgress(policy: EgressPolicy | null): Promise<void> {
    if (samePolicy(policy, this.egress)) return;
    ruleFor(policy);
    const restricting = (policy === null) !== (this.egress === null);
    this.egress = policy;
    // A contained server is in its namespace either way: the link consults the policy per connection.
    if (restricting && this.server?.alive && !this.contained) await this.start();
  }

  writeFiles(files: ReadonlyArray<SandboxFile>): Promise<void> {
    return this.queue.run(() => writeAppFiles(this.places.directory, files));
  }

  /** `timeoutMs` overrides the adapter's start timeout for this start (the cloud API lets a caller choose). */
  start(timeoutMs?: number): Promise<void> {
    return this.queue.run(() => this.restartServer(timeoutMs));
  }

  async isListening(): Promise<boolean> {
    const server = this.server;
    return server !== null && (await server.listening());
  }

  snapshot(): Promise<string> {
    return this.queue.run(() => this.snapshots.take());
  }

  restore(snapshotId: string, timeoutMs?: number): Promise<void> {
    return this.queue.run(async () => {
      const swap = await this.snapshots.stage(snapshotId);
      await this.stopServer();
      await swap();
      await this.restartServer(timeoutMs);
    });
  }

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const server = this.server;
    if (!server?.alive) throw new SandboxServerNotRunning();
    const done = this.settings.pool.using(this);
    try {
      // Redirects go back to the caller: following one from the host would let the app aim the
      // host's own network access anywhere.
      return await fetch(`http://127.0.0.1:${server.port}${checkedRequestPath(path)}`, { ...init, redirect: 'manual' });
    } finally {
      done();
    }
  }

  /** The pool's call: the server sat unused (or made room for another); its files stay. */
  stopIdle(): Promise<void> {
    return this.queue.run(() => this.stopServer());
  }

  close(): Promise<void> {
    return this.queue.run(async () => {
      await this.stopServer();
      await this.releaseEgress(null);
      this.onClose();
    });
  }

  /** Stops the server (and one an earlier host left running) and removes the app's files and snapshots. */
  discard(): Promise<void> {
    return this.queue.run(async () => {
      await this.stopServer();
      await this.record.reapLeftover();
      await this.releaseEgress(null);
      const { directory, snapshots, staging, temp } = this.places;
      for (const place of [directory, snapshots, staging, temp]) await removeTree(place);
      this.onClose();
    });
  }

  private get contained(): boolean {
    return this.settings.maker?.kind === 'bubblewrap';
  }

  /** Stops what runs, takes a place in the pool (stopping idle servers if need be), then launches. */
  private async restartServer(timeoutMs = this.settings.startTimeoutMs): Promise<void> {
    await this.stopServer();
    await this.record.reapLeftover();
    await this.settings.pool.admit(this, this.owner);
    try {
      await this.launch(timeoutMs);
    } catch (error) {
      this.settings.pool.forget(this);
      throw error;
    }
    this.settings.pool.settled(this);
  }

  private async launch(timeoutMs: number): Promise<void> {
    await mkdir(this.places.temp, { recursive: true });
    const maker = this.settings.maker;
    if (maker && (this.contained || this.egress !== null)) return this.launchInNamespace(maker, timeoutMs);
    const egress = await this.egressVariables();
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      try {
        this.server = await AppProcess.launch({
          directory: this.places.directory,
          port,
          env: { ...this.baseEnvironment(port), ...egress },
          startTimeoutMs: timeoutMs,
          onSpawn: (pid) => this.record.remember(pid),
        });
        return;
      } catch (error) {
        if (!(error instanceof SandboxServerFailed && PORT_RACE.test(error.outputTail) && attempt < 3)) throw error;
      }
    }
  }

  private async stopServer(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.settings.pool.forget(this);
    if (!server) return;
    await server.stop();
    await this.record.forget();
  }

  /**
   * A policy-bound server in its own network namespace: its `$PORT` is the link's (reached through
   * the door), and the proxy variables and preload point at the gate's loopback port for the proxy,
   * so cooperative clients work as before and everything else finds no way out.
   */
  private async launchInNamespace(maker: NamespaceMaker, timeoutMs: number): Promise<void> {
    await this.releaseEgress('namespace');
    const link = (this.link ??= await NamespaceLink.open({ maker, rule: () => ruleFor(this.egress), resolve: this.settings.resolve }));
    const environment = this.contained ? this.containedEnvironment(link.port) : this.baseEnvironment(link.port);
    this.server = await AppProcess.launch({
      directory: this.places.directory,
      port: link.port,
      env: { ...environment, ...egressEnvironment(`127.0.0.1:${link.proxyPort}`, this.contained ? INSIDE.preload : undefined) },
      startTimeoutMs: timeoutMs,
      onSpawn: (pid) => this.record.remember(pid),
      wrap: (boot, env) => link.launch(boot, env, this.places.directory),
      listening: () => link.listening(),
    });
  }

  /** The cooperative mode's variables: the host-loopback proxy when there is a policy, nothing otherwise. */
  private async egressVariables(): Promise<Record<string, string>> {
    await this.releaseEgress(this.egress === null ? null : 'cooperative');
    if (this.egress === null) return {};
    this.proxy ??= await EgressProxy.start({ rule: () => ruleFor(this.egress), resolve: this.settings.resolve });
    return egressEnvironment(this.proxy.address);
  }

  /** Ends the egress plumbing a server about to start (in `keep` mode, or none) will not use. */
  private async releaseEgress(keep: 'namespace' | 'cooperative' | null): Promise<void> {
    if (keep !== 'cooperative') {
      await this.proxy?.close();
      this.proxy = null;
    }
    if (keep !== 'namespace') {
      await this.link?.close();
      this.link = null;
    }
  }

  /** A contained server's whole environment, in the sandbox's own paths. */
  private containedEnvironment(port: number): Record<string, string> {
    return {
      PATH: [...new Set([dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'])].join(':'),
      HOME: INSIDE.app,
      TMPDIR: '/tmp',
      LANG: 'C.UTF-8',
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
    };
  }

  /** The process's whole environment: nothing of the host's (its secrets included) is passed on. */
  private baseEnvironment(port: number): Record<string, string> {
    return {
      PATH: [dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
      HOME: this.places.directory,
      TMPDIR: this.places.temp,
      LANG: 'C.UTF-8',
      NODE_ENV: 'production',
      PORT: String(port),
      // On this machine the server is reached only through Porter: loopback, never every interface.
      HOST: '127.0.0.1',
    };
  }
}
