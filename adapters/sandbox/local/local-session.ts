import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import type { EgressPolicy, SandboxFile, SandboxSession, SandboxStop } from '../../../ports/sandbox.js';
import type { Logger } from '../../../ports/logger.js';
import { checkedRequestPath } from '../app-paths.js';
import { EgressProxy, type EgressResolver } from '../egress/egress-proxy.js';
import { ruleFor, samePolicy } from '../egress/egress-rules.js';
import { SerialQueue } from '../serial-queue.js';
import { delay } from '../net-probe.js';
import { SandboxServerFailed, SandboxServerNotRunning, SandboxStoppedForLimit } from '../sandbox-errors.js';
import { AppDoor } from './app-door.js';
import { packTree, writeTreeFiles, type PackedTree } from './app-tree.js';
import { DirectorySnapshots } from './directory-snapshots.js';
import { removeTree } from './remove-tree.js';
import { limitOfExit, limitSize, type AppLimits } from './app-limits.js';
import type { GateLauncher } from './gate-launchers.js';
import type { GateProcess, LimitCrossing } from './gate-process.js';
import type { PooledServer, ServerPool } from './server-pool.js';

export interface LocalSessionPlaces {
  /** The app's working tree: what `/app` starts from. No app process ever sees this folder. */
  readonly directory: string;
  readonly snapshots: string;
  readonly staging: string;
  /** Outside bubblewrap: the app's `/tmp`, and the folders its running copies are unpacked into. */
  readonly temp: string;
  readonly runs: string;
}

export interface LocalSessionSettings {
  readonly startTimeoutMs: number;
  readonly resolve?: EgressResolver;
  /** How gates start here: under bubblewrap, in an `unshare` namespace, or plainly. */
  readonly launcher: GateLauncher;
  /** For an app with an egress policy when `launcher` puts it on the host's network: a namespace launcher, when this machine has one. */
  readonly policyLauncher?: GateLauncher;
  /** Caps the live servers and stops idle ones. */
  readonly pool: ServerPool;
  /** The app's limits (bubblewrap only; null: none apply). */
  readonly limits: AppLimits | null;
  readonly logger?: Pick<Logger, 'warn'>;
}

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

/** One running copy of the app: its gate, the door Porter reaches it through, and what it serves. */
interface Running {
  readonly gate: GateProcess;
  readonly door: AppDoor;
  readonly digest: string;
  readonly runtime: string | null;
  inFlight: number;
  drained: (() => void) | null;
  /** Ends its draining early (the server is being stopped). */
  cut?: () => void;
}

/** A port taken between our probe and the server's bind shows up as this in its output. */
const PORT_RACE = /EADDRINUSE/;
/**
 * How long a server that stopped answering is given to be heard ending. A Node process dying of a
 * large allocation can take seconds to be reaped on a busy host (more than 5 s, seen with a full
 * test suite beside it); within this the answer says why.
 */
const ENDING_WAIT_MS = 10_000;
/** How long an app that still does not answer after ENDING_WAIT_MS is given for its gate to tell its end. */
const ENDED_WAIT_MS = 10_000;
/** How long a replaced server may finish the requests it was answering. */
const DRAIN_MS = 30_000;

/**
 * One app's sandbox on this machine. Its working tree and snapshots are folders only the host
 * touches; each start unpacks a copy into a sandbox of its own (see the launchers), so the app's
 * code never sees, races or rewrites what the host reads and writes. A start runs the new copy
 * beside the one serving and switches only once it listens (the old one finishes its requests);
 * a failed start leaves the old one serving. Operations but `fetch` run one at a time.
 */
export class LocalSandboxSession implements SandboxSession, PooledServer {
  private current: Running | null = null;
  private proxy: EgressProxy | null = null;
  private stop: SandboxStop | null = null;
  /** Copies that were replaced and are finishing their requests. */
  private readonly retiring = new Set<Running>();
  /** The working tree as last read (null: changed since, or never read). */
  private packed: PackedTree | null = null;
  /** The last gate's end being handled (its limit, if any, recorded). */
  private ending: Promise<void> = Promise.resolve();
  private readonly queue = new SerialQueue();
  private readonly snapshots: DirectorySnapshots;
  private starts = 0;

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
    ruleFor(deps.egress); // refuses a malformed policy before anything runs
    this.snapshots = new DirectorySnapshots(deps.places.directory, deps.places.snapshots, deps.places.staging);
  }

  /**
   * A new policy from a reopen: the proxy consults it per connection, so it applies at once; a
   * running server that must move into (or out of) a namespace of its own is restarted.
   */
  async applyEgress(policy: EgressPolicy | null): Promise<void> {
    if (samePolicy(policy, this.egress)) return;
    ruleFor(policy);
    const moves = this.launcherFor(policy) !== this.launcherFor(this.egress);
    this.egress = policy;
    if (moves && this.current?.gate.alive) await this.start();
  }

  writeFiles(files: ReadonlyArray<SandboxFile>): Promise<void> {
    return this.queue.run(async () => {
      this.packed = null;
      await writeTreeFiles(this.places.directory, files);
    });
  }

  /** `timeoutMs` overrides the adapter's start timeout for this start (the cloud API lets a caller choose). */
  start(timeoutMs?: number): Promise<void> {
    return this.queue.run(async () => this.startServer(await this.workingTree(), timeoutMs));
  }

  async isListening(): Promise<boolean> {
    const running = this.current;
    if (!running) return false;
    // Stopped for a limit: it is on its way out, whatever it still answers in its last moments.
    if (!this.stopped() && (await running.gate.probe())) return true;
    // An app that stopped answering has most likely just ended, and its gate is about to say so:
    // what it ended of (a limit?) is known once the gate has finished.
    await Promise.race([running.gate.finished, delay(ENDING_WAIT_MS)]);
    // The wait is bounded on the host's clock, and a host too busy to run for longer than it wakes
    // with that timer due before it has read what the gate said meanwhile (that the app ended). The
    // gate answers a probe only after all it said before: its answer, not the timer, decides.
    if (running.gate.alive && !this.stopped() && (await running.gate.probe())) return true;
    // It does not answer. Its gate may not have heard yet that it ended (its own sandbox starved of
    // CPU on a busy host) or has, and its last words are still being read: either way why it ended
    // is known once the gate has finished, however busy the host.
    await Promise.race([running.gate.finished, delay(ENDED_WAIT_MS)]);
    await this.ending;
    return false;
  }

  snapshot(): Promise<string> {
    return this.queue.run(async () => this.snapshots.take(await this.workingTree()));
  }

  restore(snapshotId: string, timeoutMs?: number): Promise<void> {
    return this.queue.run(() => this.restoreServer(snapshotId, timeoutMs));
  }

  revive(snapshotId: string): Promise<void> {
    return this.queue.run(async () => {
      // Asked by a request that found no server; a start queued before it (an edit) may serve now.
      if (this.current?.gate.alive && (await this.current.gate.probe())) return;
      await this.restoreServer(snapshotId);
    });
  }

  private async restoreServer(snapshotId: string, timeoutMs?: number): Promise<void> {
    const { tree, swap } = await this.snapshots.stage(snapshotId);
    this.packed = null;
    await swap();
    this.packed = tree;
    // Already serving exactly these files (an edit that failed left the old server up): nothing to restart.
    if (this.current?.gate.alive && this.current.digest === tree.digest) return;
    await this.startServer(tree, timeoutMs);
  }

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const running = this.current;
    if (!running?.gate.alive) throw this.stop ? new SandboxStoppedForLimit(this.stop) : new SandboxServerNotRunning();
    const done = this.settings.pool.using(this);
    running.inFlight++;
    try {
      // Redirects go back to the caller: following one from the host would let the app aim the
      // host's own network access anywhere.
      return await fetch(`http://127.0.0.1:${running.door.port}${checkedRequestPath(path)}`, { ...init, redirect: 'manual' });
    } finally {
      running.inFlight--;
      if (running.inFlight === 0) running.drained?.();
      done();
    }
  }

  /** The host pid of what holds the running copy (bwrap, or the gate), for diagnostics; undefined when none runs. */
  get sandboxPid(): number | undefined {
    return this.current?.gate.pid;
  }

  stopped(): SandboxStop | null {
    const stop = this.stop;
    return stop && Date.parse(stop.retryAt) > Date.now() ? stop : null;
  }

  /** The pool's call: the server sat unused (or made room for another); its files stay. */
  stopIdle(): Promise<void> {
    return this.queue.run(() => this.stopServer());
  }

  close(): Promise<void> {
    return this.queue.run(async () => {
      await this.stopServer();
      await this.proxy?.close();
      this.proxy = null;
      this.onClose();
    });
  }

  /** Stops the server and removes the app's files and snapshots. */
  discard(): Promise<void> {
    return this.queue.run(async () => {
      await this.stopServer();
      await this.proxy?.close();
      this.proxy = null;
      const { directory, snapshots, staging, temp, runs } = this.places;
      this.packed = null;
      for (const place of [directory, snapshots, staging, temp, runs]) await removeTree(place);
      this.onClose();
    });
  }

  /** The working tree, packed: read once after each change (only this session writes it). */
  private async workingTree(): Promise<PackedTree> {
    return (this.packed ??= await packTree(this.places.directory));
  }

  /** The launcher for a policy: a policy-bound app leaves the host's network where this machine allows it. */
  private launcherFor(policy: EgressPolicy | null): GateLauncher {
    return policy !== null && this.settings.policyLauncher ? this.settings.policyLauncher : this.settings.launcher;
  }

  /** Starts `tree` beside whatever serves now, and switches to it once it listens. */
  private async startServer(tree: PackedTree, timeoutMs = this.settings.startTimeoutMs): Promise<void> {
    await this.settings.pool.admit(this, this.owner);
    let next: Running;
    try {
      next = await this.launch(tree, timeoutMs);
    } catch (error) {
      if (this.current?.gate.alive) this.settings.pool.settled(this);
      else this.settings.pool.forget(this);
      throw error;
    } finally {
      this.launcherFor(this.egress).warmUp();
    }
    this.settings.pool.settled(this);
    const previous = this.current;
    this.current = next;
    this.stop = null;
    if (previous) void this.retire(previous);
  }

  private async launch(tree: PackedTree, timeoutMs: number): Promise<Running> {
    const launcher = this.launcherFor(this.egress);
    for (let attempt = 1; ; attempt++) {
      const runtime = launcher.usesHostFolders ? join(this.places.runs, String(++this.starts)) : null;
      if (runtime) {
        await rm(runtime, { recursive: true, force: true });
        await mkdir(runtime, { recursive: true });
        await mkdir(this.places.temp, { recursive: true });
      }
      const settings = await launcher.boot({ entries: tree.entries, egress: this.egress, runtime: runtime ?? '', temp: this.places.temp });
      const gate = launcher.take();
      try {
        await gate.boot(settings, this.eventsOf(gate), timeoutMs);
        const door = await AppDoor.open(() => gate.connect());
        return { gate, door, digest: tree.digest, runtime, inFlight: 0, drained: null };
      } catch (error) {
        await gate.stop();
        if (runtime) await removeTree(runtime);
        const raced = error instanceof SandboxServerFailed && PORT_RACE.test(error.outputTail) && launcher.kind === 'plain';
        if (!raced || attempt >= 3) throw error;
      }
    }
  }

  private eventsOf(gate: GateProcess) {
    return {
      onEgress: (socket: Socket) => this.egressProxy().accept(socket),
      onLimit: (crossing: LimitCrossing) => this.stoppedFor(crossing.limit),
      onExit: () => void (this.ending = this.ended(gate)),
    };
  }

  private egressProxy(): EgressProxy {
    return (this.proxy ??= EgressProxy.create({ rule: () => ruleFor(this.egress), resolve: this.settings.resolve }));
  }

  /** The app crossed a limit: it is stopped, and says why until its cool-down has passed. */
  private stoppedFor(limit: LimitCrossing['limit']): void {
    const limits = this.settings.limits;
    if (!limits || this.stop) return;
    const at = new Date();
    this.stop = {
      limit,
      message: `The app was stopped: it used more than its ${limitSize(limit, limits)}`,
      at: at.toISOString(),
      retryAt: new Date(at.getTime() + limits.cooldownMs).toISOString(),
    };
    this.settings.logger?.warn('an app server was stopped for crossing a limit', { appId: this.id, limit });
  }

  /** A gate ended on its own (the app exited, crashed or was stopped for a limit). */
  private async ended(gate: GateProcess): Promise<void> {
    const running = this.current;
    if (running?.gate !== gate) return;
    const limit = limitOfExit(gate.endedBySignal, gate.output.text());
    if (limit) this.stoppedFor(limit);
    this.current = null;
    this.settings.pool.forget(this);
    await running.door.close();
    if (running.runtime) await removeTree(running.runtime);
  }

  /** A replaced copy: it finishes what it was answering (up to DRAIN_MS), then goes. */
  private async retire(running: Running): Promise<void> {
    this.retiring.add(running);
    if (running.inFlight > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, DRAIN_MS);
        timer.unref();
        running.drained = () => {
          clearTimeout(timer);
          resolve();
        };
        // Stopping the server (idle, close, discard) ends the draining ones at once too.
        running.cut = running.drained;
      });
    }
    await this.finish(running);
  }

  private async finish(running: Running): Promise<void> {
    this.retiring.delete(running);
    await running.gate.stop();
    await running.door.close();
    if (running.runtime) await removeTree(running.runtime);
  }

  private async stopServer(): Promise<void> {
    const running = this.current;
    this.current = null;
    this.settings.pool.forget(this);
    const draining = [...this.retiring];
    for (const each of draining) each.cut?.();
    await Promise.all([...draining, ...(running ? [running] : [])].map((each) => this.finish(each)));
  }
}
