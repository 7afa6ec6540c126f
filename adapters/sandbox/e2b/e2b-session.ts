import type { CommandHandle, Sandbox as E2bInstance } from 'e2b';
import type { SandboxFile, SandboxSession } from '../../../ports/sandbox.js';
import { APP_ROOT, checkedRequestPath, relativeAppPath } from '../app-paths.js';
import { OutputTail } from '../output-tail.js';
import { delay } from '../net-probe.js';
import { SerialQueue } from '../serial-queue.js';
import { SandboxServerFailed, SandboxServerNotRunning, SandboxSnapshotNotFound } from '../sandbox-errors.js';
import { e2bCall } from './e2b-errors.js';
import type { Lineage } from './e2b-lineage.js';

/** Marks our server command so a reconnected session (or a restored memory snapshot) can find and stop it. */
const SERVER_MARK = 'porter-app-server';
/** The spec's boot rule, run from /app: start.sh (directly when executable) if present, else server.js. */
export const SERVER_COMMAND = `: ${SERVER_MARK}; if [ -x start.sh ]; then exec ./start.sh; elif [ -f start.sh ]; then exec sh start.sh; else exec node server.js; fi`;

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
 * e2b's own proxy (which answers 502 "port is not open" otherwise), the same door fetch uses.
 */
export class E2bSandboxSession implements SandboxSession {
  private readonly queue = new SerialQueue();

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
    return this.queue.run(() => this.restartServer());
  }

  async isListening(): Promise<boolean> {
    try {
      const response = await fetch(this.appUrl('/'), {
        headers: this.routingHeaders(),
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

  snapshot(): Promise<string> {
    return this.queue.run(async () => (await e2bCall(() => this.instance.createSnapshot())).snapshotId);
  }

  restore(snapshotId: string): Promise<void> {
    return this.queue.run(async () => {
      if (!/^[\w./:-]{1,256}$/.test(snapshotId)) throw new SandboxSnapshotNotFound();
      // A snapshot becomes a new sandbox; the old one goes once the new one exists.
      const parent = this.lineage;
      const fresh = await this.settings.createFrom(snapshotId, parent);
      const old = this.instance;
      this.instance = fresh;
      this.ancestors = [parent.sandboxId, ...parent.ancestors];
      await e2bCall(() => old.kill()).catch(() => undefined);
      await this.restartServer();
    });
  }

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    for (const [name, value] of Object.entries(this.routingHeaders())) headers.set(name, value);
    const response = await fetch(this.appUrl(checkedRequestPath(path)), { ...init, headers, redirect: 'manual' });
    // Only a 502 can be the proxy's; a clone of anything else would hold its body for nothing.
    if (response.status === 502 && (await isProxyRefusal(response.clone()))) throw new SandboxServerNotRunning();
    return response;
  }

  close(): Promise<void> {
    return this.queue.run(async () => {
      await this.stopServer();
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

  private async restartServer(): Promise<void> {
    await this.stopServer();
    const output = new OutputTail();
    const handle: CommandHandle = await e2bCall(() =>
      this.instance.commands.run(SERVER_COMMAND, {
        background: true,
        cwd: APP_ROOT,
        envs: { PORT: String(this.settings.port) },
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
      if (await this.isListening()) {
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

  /** Kills every server command this app ever started in the sandbox, then waits for the port to close. */
  private async stopServer(): Promise<void> {
    const running = await e2bCall(() => this.instance.commands.list());
    const servers = running.filter((process) => process.args.some((arg) => arg.includes(SERVER_MARK)));
    if (servers.length === 0) return;
    await Promise.all(servers.map((server) => e2bCall(() => this.instance.commands.kill(server.pid))));
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && (await this.isListening())) await delay(100);
  }

  private appUrl(path: string): string {
    const base = this.settings.sandboxUrl ?? `https://${this.instance.getHost(this.settings.port)}`;
    return `${base.replace(/\/$/, '')}${path}`;
  }

  /** e2b routes by host name, or by these headers on its shared sandbox URL; the token opens a non-public sandbox. */
  private routingHeaders(): Record<string, string> {
    return {
      'E2b-Sandbox-Id': this.instance.sandboxId,
      'E2b-Sandbox-Port': String(this.settings.port),
      ...(this.instance.trafficAccessToken ? { 'e2b-traffic-access-token': this.instance.trafficAccessToken } : {}),
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
