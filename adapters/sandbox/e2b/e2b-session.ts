import type { CommandHandle, Sandbox as E2bInstance } from 'e2b';
import type { SandboxFile, SandboxSession } from '../../../ports/sandbox.js';
import { APP_ROOT, checkedRequestPath, relativeAppPath } from '../app-paths.js';
import { OutputTail } from '../output-tail.js';
import { delay } from '../net-probe.js';
import { SerialQueue } from '../serial-queue.js';
import { SandboxServerFailed, SandboxServerNotRunning, SandboxSnapshotNotFound } from '../sandbox-errors.js';
import { e2bCall } from './e2b-errors.js';
import type { Lineage } from './e2b-lineage.js';
import { defined } from '../../../domain/defined.js';

/** How long a killed server's port is watched for closing (a busy sandbox can take seconds). */
const STOP_WAIT_MS = 15_000;
/** Marks our server command so a reconnected session (or a restored memory snapshot) can find and stop it. */
const SERVER_MARK = 'porter-app-server';
/**
 * The spec's boot rule, run from /app: start.sh (directly when executable) if present, else
 * server.js; marked with the port it serves on, so the server on the other port can be left alone.
 */
export function serverCommand(port: number): string {
  return `: ${SERVER_MARK}-${port}; if [ -x start.sh ]; then exec ./start.sh; elif [ -f start.sh ]; then exec sh start.sh; else exec node server.js; fi`;
}

export interface E2bSessionSettings {
  /** The app server's port inside the sandbox. */
  readonly port: number;
  readonly startTimeoutMs: number;
  /** Where app traffic goes; by default `https://<port>-<sandboxId>.<domain>` from `getHost`. */
  readonly sandboxUrl?: string;
  /** Creates a fresh sandbox from a snapshot (with the app's metadata, network and lifecycle), descending from `parent`. */
  readonly createFrom: (snapshotId: string, parent: Lineage) => Promise<E2bInstance>;
  /** Kills the app's sandboxes and deletes every snapshot of its lineage. */
  readonly discard: (current: Lineage) => Promise<void>;
}

/** What E2bSandboxSession is built from. */
export interface E2bSandboxSessionDeps {
  readonly id: string;
  readonly instance: E2bInstance;
  /** The sandboxes the current one descends from, newest first. */
  readonly ancestors: ReadonlyArray<string>;
  readonly settings: E2bSessionSettings;
  readonly onClose: () => void;
}

/**
 * An app's e2b sandbox. The server runs as a background command; whether it listens is asked of
 * e2b's own proxy (which answers 502 "port is not open" otherwise), the same door fetch uses. A
 * start boots the new server on the other of two ports (`port`, `port + 1`) beside the one
 * serving, and switches to it once it listens; a restore boots in the snapshot's new sandbox
 * before the old sandbox goes. Either way a failed start leaves the old server serving.
 */
export class E2bSandboxSession implements SandboxSession {
  private readonly queue = new SerialQueue();
  /** The port requests go to: the settings' port, or the one after it. */
  private port: number;

  readonly id: string;
  private instance: E2bInstance;
  private ancestors: ReadonlyArray<string>;
  private readonly settings: E2bSessionSettings;
  private readonly onClose: () => void;

  constructor(deps: E2bSandboxSessionDeps) {
    this.id = deps.id;
    this.instance = deps.instance;
    this.ancestors = deps.ancestors;
    this.settings = deps.settings;
    this.onClose = deps.onClose;
    this.port = deps.settings.port;
  }

  /** The live e2b sandbox id (it changes when a snapshot is restored). */
  get sandboxId(): string {
    return this.instance.sandboxId;
  }

  async writeFiles(files: ReadonlyArray<SandboxFile>): Promise<void> {
    for (const file of files) relativeAppPath(file.path);
    return this.queue.run(async () => {
      if (files.length === 0) return;
      await e2bCall(() => this.instance.files.write(files.map((file) => ({ path: file.path, data: asData(file.content) }))));
      // Relative to /app (the command's working directory), so the command names no absolute path.
      const modes = files
        .filter((file) => file.mode !== undefined)
        .map((file) => `chmod ${(file.mode! & 0o777).toString(8)} ${quote(relativeAppPath(file.path))}`);
      if (modes.length) await e2bCall(() => this.instance.commands.run(modes.join(' && '), { cwd: APP_ROOT }));
    });
  }

  start(): Promise<void> {
    return this.queue.run(async () => {
      const serving = await this.servingPort();
      const next = serving === null ? this.settings.port : this.otherPort(serving);
      await this.stopServer(this.instance, next);
      await this.bootServer(this.instance, next);
      this.port = next;
      if (serving !== null) await this.stopServer(this.instance, serving);
    });
  }

  async isListening(): Promise<boolean> {
    return (await this.servingPort()) !== null;
  }

  /** The port a server answers on (the one requests went to, else the other: another instance may have moved it); null when none does. */
  private async servingPort(): Promise<number | null> {
    for (const port of [this.port, this.otherPort(this.port)]) {
      if (await this.answers(this.instance, port)) return (this.port = port);
    }
    return null;
  }

  snapshot(): Promise<string> {
    return this.queue.run(async () => (await e2bCall(() => this.instance.createSnapshot())).snapshotId);
  }

  restore(snapshotId: string): Promise<void> {
    return this.queue.run(async () => {
      if (!/^[\w./:-]{1,256}$/.test(snapshotId)) throw new SandboxSnapshotNotFound();
      // A snapshot becomes a new sandbox; the old one keeps serving until the new one's server listens.
      const parent = this.lineage;
      const fresh = await this.settings.createFrom(snapshotId, parent);
      try {
        // A memory snapshot may hold a running server: what boots is the snapshot's files.
        await this.stopServer(fresh);
        await this.bootServer(fresh, this.settings.port);
      } catch (error) {
        await e2bCall(() => fresh.kill()).catch(() => undefined);
        throw error;
      }
      const old = this.instance;
      this.instance = fresh;
      this.port = this.settings.port;
      this.ancestors = [parent.sandboxId, ...parent.ancestors];
      await e2bCall(() => old.kill()).catch(() => undefined);
    });
  }

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    for (const [name, value] of Object.entries(this.routingHeaders(this.instance, this.port))) headers.set(name, value);
    const port = this.port;
    const response = await fetch(this.appUrl(this.instance, port, checkedRequestPath(path)), { ...init, headers, redirect: 'manual' });
    // Only a 502 can be the proxy's; a clone of anything else would hold its body for nothing.
    if (response.status === 502 && (await isProxyRefusal(response.clone()))) {
      // Another instance may have moved the server to its other port: once, there.
      const moved = (await this.servingPort()) ?? port;
      if (moved === port || init.body instanceof ReadableStream) throw new SandboxServerNotRunning();
      return this.fetch(path, init);
    }
    return response;
  }

  close(): Promise<void> {
    return this.queue.run(async () => {
      await this.stopServer(this.instance);
      // Paused, not killed: reopening the app resumes this sandbox with its files.
      await e2bCall(() => this.instance.pause());
      this.onClose();
    });
  }

  /** Kills the sandbox (and any other of this app) and deletes the snapshots it and its ancestors took. */
  discard(): Promise<void> {
    return this.queue.run(async () => {
      await this.settings.discard(this.lineage);
      this.onClose();
    });
  }

  private get lineage(): Lineage {
    return { sandboxId: this.instance.sandboxId, ancestors: this.ancestors };
  }

  private otherPort(port: number): number {
    return port === this.settings.port ? this.settings.port + 1 : this.settings.port;
  }

  /** Boots the server on `port` in `instance`; resolves once it listens there, and kills it when it does not. */
  private async bootServer(instance: E2bInstance, port: number): Promise<void> {
    const output = new OutputTail();
    const handle: CommandHandle = await e2bCall(() =>
      instance.commands.run(serverCommand(port), {
        background: true,
        cwd: APP_ROOT,
        envs: { PORT: String(port) },
        // A server runs until stopped: no command deadline.
        timeoutMs: 0,
        onStdout: (data) => output.push(data),
        onStderr: (data) => output.push(data),
      }),
    );
    let exited = false;
    handle.wait().then(
      () => (exited = true),
      () => (exited = true),
    );
    const deadline = Date.now() + this.settings.startTimeoutMs;
    for (;;) {
      if (exited) throw new SandboxServerFailed('exited', output.text());
      if (await this.answers(instance, port)) {
        if (!exited) return;
        throw new SandboxServerFailed('exited', output.text());
      }
      if (Date.now() > deadline) {
        await handle.kill().catch(() => false);
        await handle.disconnect();
        throw new SandboxServerFailed('timeout', output.text());
      }
      await delay(100);
    }
  }

  /**
   * Kills the server commands of `instance` this app started (on `port`, or on any port), then
   * waits for the port to close.
   */
  private async stopServer(instance: E2bInstance, port?: number): Promise<void> {
    const mark = port === undefined ? SERVER_MARK : `${SERVER_MARK}-${port}`;
    const running = await e2bCall(() => instance.commands.list());
    const servers = running.filter((process) => process.args.some((arg) => arg.includes(`${mark};`) || arg.includes(`${mark}-`)));
    if (servers.length === 0) return;
    await Promise.all(servers.map((server) => e2bCall(() => instance.commands.kill(server.pid))));
    // A cap, not a pace: until the port closes, a server booted on it would seem to answer at once.
    const deadline = Date.now() + STOP_WAIT_MS;
    const ports = port === undefined ? [this.settings.port, this.settings.port + 1] : [port];
    for (const each of ports) while (Date.now() < deadline && (await this.answers(instance, each))) await delay(100);
  }

  /** Whether something answers on `port` of `instance`, asked of e2b's proxy. */
  private async answers(instance: E2bInstance, port: number): Promise<boolean> {
    try {
      const response = await fetch(this.appUrl(instance, port, '/'), {
        headers: this.routingHeaders(instance, port),
        redirect: 'manual',
        signal: AbortSignal.timeout(5000),
      });
      if (response.status !== 502) {
        await response.body?.cancel();
        return true;
      }
      return !(await isProxyRefusal(response));
    } catch {
      return false;
    }
  }

  private appUrl(instance: E2bInstance, port: number, path: string): string {
    const base = this.settings.sandboxUrl ?? `https://${instance.getHost(port)}`;
    return `${base.replace(/\/$/, '')}${path}`;
  }

  /** e2b routes by host name, or by these headers on its shared sandbox URL; the token opens a non-public sandbox. */
  private routingHeaders(instance: E2bInstance, port: number): Record<string, string> {
    return {
      'E2b-Sandbox-Id': instance.sandboxId,
      'E2b-Sandbox-Port': String(port),
      ...defined({ 'e2b-traffic-access-token': instance.trafficAccessToken || undefined }),
    };
  }
}

/**
 * e2b's proxy answers 502 with a JSON body naming the sandbox and port when nothing listens
 * (`"The sandbox is running but port is not open"`); an app's own 502 has no such body.
 */
async function isProxyRefusal(response: Response): Promise<boolean> {
  const body = await response.text().catch(() => '');
  try {
    const parsed = JSON.parse(body) as { sandboxId?: unknown; port?: unknown };
    return typeof parsed.sandboxId === 'string' && parsed.port !== undefined;
  } catch {
    return false;
  }
}

function asData(content: string | Uint8Array): string | Blob {
  return typeof content === 'string' ? content : new Blob([new Uint8Array(content)]);
}

function quote(path: string): string {
  return `'${path.replace(/'/g, `'\\''`)}'`;
}
