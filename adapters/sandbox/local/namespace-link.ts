import { connect, createServer, type Server, type Socket } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { EgressProxy, type EgressResolver } from '../egress/egress-proxy.js';
import type { EgressRule } from '../egress/egress-rules.js';
import { freePort } from '../net-probe.js';
import type { BootCommand, Launch } from './app-process.js';
import { UNSHARE_FLAGS, type NamespaceTools } from './network-namespace.js';
import { bubblewrapArgs, INSIDE } from './bubblewrap-command.js';
import { EGRESS_PRELOAD_PATH } from '../egress/egress-environment.js';

/** The program that keeps the namespace's doors (see namespace-gate.cjs). */
export const NAMESPACE_GATE_PATH = fileURLToPath(new URL('./namespace-gate.cjs', import.meta.url));

/** What makes the namespace: util-linux `unshare` (the gate sees the host), or bubblewrap (it sees only the sandbox). */
export type NamespaceMaker =
  | { readonly kind: 'unshare'; readonly tools: NamespaceTools }
  | { readonly kind: 'bubblewrap'; readonly bwrap: string; readonly etc: string };

export interface NamespaceLinkOptions {
  readonly maker: NamespaceMaker;
  /** Consulted per connection, so a policy change takes effect at once. */
  readonly rule: () => EgressRule;
  readonly resolve?: EgressResolver;
}

const PROBE_TIMEOUT_MS = 1000;

/** What NamespaceLink is built from. */
export interface NamespaceLinkDeps {
  readonly folder: string;
  readonly options: NamespaceLinkOptions;
  readonly proxy: EgressProxy;
  readonly token: string;
  readonly door: Server;
  /** Every connection through the door, both sides, so close() ends them. */
  readonly sockets: Set<Socket>;
  /** The host port Porter reaches the server on, and the `$PORT` it listens on inside. */
  readonly port: number;
  /** Where the proxy appears inside the namespace (its loopback is empty, so any free number will do). */
  readonly proxyPort: number;
}

/**
 * The host's side of one app's network namespace. The app server runs inside, where loopback is
 * its own and there is no other interface; this link gives it exactly two ways through, both Unix
 * sockets in a private folder (the filesystem is shared across namespaces, loopback is not):
 * out, to this app's egress proxy (which admits only the gate holding its token); and in, from a
 * loopback port on the host, which is where Porter's requests to the app go.
 *
 * The link outlives restarts of the server (its port stays the same); close() ends it.
 */
export class NamespaceLink {
  readonly port: number;
  readonly proxyPort: number;

  constructor(private readonly deps: NamespaceLinkDeps) {
    this.port = deps.port;
    this.proxyPort = deps.proxyPort;
  }

  static async open(options: NamespaceLinkOptions): Promise<NamespaceLink> {
    const folder = await mkdtemp(join(socketBase(), 'porter-net-'));
    const token = randomBytes(32).toString('base64url');
    let proxy: EgressProxy | null = null;
    let door: Server | null = null;
    try {
      proxy = await EgressProxy.start({
        rule: options.rule,
        resolve: options.resolve,
        socket: { path: join(folder, 'egress.sock'), token },
      });
      const sockets = new Set<Socket>();
      door = await openDoor(join(folder, 'app.sock'), sockets);
      const port = (door.address() as { port: number }).port;
      return new NamespaceLink({ folder, options, proxy, token, door, sockets, port, proxyPort: await freePort() });
    } catch (error) {
      door?.close();
      await proxy?.close();
      await rm(folder, { recursive: true, force: true });
      throw error;
    }
  }

  /**
   * Runs a boot command inside a fresh namespace, behind the gate. The gate's settings (the proxy
   * token among them) travel on its stdin: argv is readable by every local process.
   */
  launch(boot: BootCommand, env: Readonly<Record<string, string>>, cwd: string): Launch {
    const maker = this.deps.options.maker;
    const sockets = maker.kind === 'bubblewrap' ? INSIDE.sockets : this.deps.folder;
    // Under bubblewrap the app's folder is /app: the boot command names it so.
    const inside = (value: string) =>
      maker.kind === 'bubblewrap' && (value === cwd || value.startsWith(`${cwd}/`)) ? `${INSIDE.app}${value.slice(cwd.length)}` : value;
    const settings = {
      ip: maker.kind === 'unshare' ? maker.tools.ip : null,
      token: this.deps.token,
      egressSocket: join(sockets, 'egress.sock'),
      appSocket: join(sockets, 'app.sock'),
      probeSocket: join(sockets, 'probe.sock'),
      proxyPort: this.proxyPort,
      port: this.port,
      command: inside(boot.command),
      args: boot.args.map(inside),
      env,
      cwd: inside(cwd),
    };
    const input = JSON.stringify(settings);
    if (maker.kind === 'unshare')
      return { command: maker.tools.unshare, args: [...UNSHARE_FLAGS, '--', process.execPath, NAMESPACE_GATE_PATH], env: {}, input };
    const places = { app: cwd, etc: maker.etc, sockets: this.deps.folder, gate: NAMESPACE_GATE_PATH, preload: EGRESS_PRELOAD_PATH };
    return { command: maker.bwrap, args: bubblewrapArgs(places, [process.execPath, INSIDE.gate]), env: {}, input };
  }

  /** Asks the gate whether the server accepts connections on its port inside; false when no gate runs. */
  listening(): Promise<boolean> {
    return new Promise((resolve) => {
      const socket = connect(join(this.deps.folder, 'probe.sock'));
      let answer = '';
      const done = (value: boolean) => {
        socket.destroy();
        resolve(value);
      };
      socket.setTimeout(PROBE_TIMEOUT_MS, () => done(false));
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
      socket.once('end', () => done(answer === '1'));
      socket.once('error', () => done(false));
    });
  }

  async close(): Promise<void> {
    for (const socket of this.deps.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.deps.door.close(() => resolve()));
    await this.deps.proxy.close();
    await rm(this.deps.folder, { recursive: true, force: true });
  }
}

/** Host loopback → the gate's Unix socket: each connection is carried to the server inside. */
function openDoor(appSocket: string, sockets: Set<Socket>): Promise<Server> {
  const door = createServer((client) => {
    client.pause();
    const inside = connect(appSocket);
    for (const socket of [client, inside]) {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    }
    const end = () => {
      client.destroy();
      inside.destroy();
    };
    client.on('error', end);
    client.once('close', end);
    inside.on('error', end);
    inside.once('close', end);
    inside.once('connect', () => {
      client.pipe(inside);
      inside.pipe(client);
      client.resume();
    });
  });
  return new Promise((resolve, reject) => {
    door.once('error', reject);
    door.listen(0, '127.0.0.1', () => resolve(door));
  });
}

/** Unix socket paths are limited to about 100 bytes, so the folder goes somewhere short. */
function socketBase(): string {
  const base = tmpdir();
  return base.length <= 60 ? base : '/tmp';
}
