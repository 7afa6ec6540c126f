import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { EgressPolicy, Sandbox } from '../../../ports/sandbox.js';
import type { Logger } from '../../../ports/logger.js';
import { checkedAppId } from '../app-paths.js';
import type { EgressResolver } from '../egress/egress-proxy.js';
import { LocalSandboxSession } from './local-session.js';
import { namespaceSupport, type EgressIsolation, type NamespaceTools } from './network-namespace.js';

export interface LocalSandboxOptions {
  /** Where app directories live; each app gets `<root>/<appId>`. Default `.porter/sandboxes`. */
  readonly root?: string;
  /** How long a server may take to listen on `$PORT`. Default 15 s. */
  readonly startTimeoutMs?: number;
  /** How the egress proxy resolves allowed names (tests point names at loopback). Default DNS. */
  readonly resolve?: EgressResolver;
  /**
   * `auto` (default): an app with an egress policy runs in a network namespace of its own where this
   * machine allows it (Linux with unprivileged user namespaces, `unshare` and `ip`), else cooperatively.
   * `cooperative`: never use a namespace.
   */
  readonly egressIsolation?: 'auto' | 'cooperative';
  /** Where `unshare` and `ip` are. Default: found on PATH, /usr/sbin, /sbin. */
  readonly namespaceTools?: Partial<NamespaceTools>;
  /** Told once per process when namespaces are unavailable and egress falls back to cooperative. */
  readonly logger?: Pick<Logger, 'warn'>;
}

/** Fallback reasons already logged: one warning per boot, not one per adapter. */
const warned = new Set<string>();

/**
 * Runs each app's server as a child process of this host: its own directory under the root, its
 * own free port passed as `PORT`, an environment built from nothing, and — for apps with an egress
 * policy — its own filtering proxy, which is the only way out of the network namespace the server
 * runs in (`egressIsolation: 'namespace'`), or, where the machine allows no namespace, the way the
 * server is steered by a preload and proxy variables (`'cooperative'`). Apps without a policy run
 * on the host's network, unrestricted. Status `custom`.
 *
 * The isolation is a process boundary, not a machine one: the server runs as this host's user and
 * sees its filesystem. Use the e2b or cloud adapter for code you do not trust.
 */
export class LocalSandbox implements Sandbox {
  readonly kind = 'custom' as const;
  readonly root: string;
  /** How apps with an egress policy are held to it on this machine (decided once, at construction). */
  readonly egressIsolation: EgressIsolation;
  private readonly sessions = new Map<string, Promise<LocalSandboxSession>>();
  private readonly startTimeoutMs: number;
  private readonly namespaceTools: NamespaceTools | undefined;

  constructor(private readonly options: LocalSandboxOptions = {}) {
    this.root = resolve(options.root ?? '.porter/sandboxes');
    this.startTimeoutMs = options.startTimeoutMs ?? 15_000;
    if (options.egressIsolation === 'cooperative') {
      this.egressIsolation = 'cooperative';
    } else {
      const support = namespaceSupport(options.namespaceTools);
      this.egressIsolation = support.available ? 'namespace' : 'cooperative';
      if (support.available) this.namespaceTools = support.tools;
      else if (!warned.has(support.reason)) {
        warned.add(support.reason);
        const logger = options.logger ?? { warn: (message: string, fields?: Record<string, unknown>) => console.warn(message, fields) };
        logger.warn(
          'local sandbox: apps with an egress policy run without a network namespace, so their policy holds only for code that honours proxy settings (egressIsolation: cooperative); use e2b or the cloud sandbox for untrusted code',
          { reason: support.reason },
        );
      }
    }
  }

  async open(appId: string, options: { readonly egress: EgressPolicy | null }): Promise<LocalSandboxSession> {
    const id = checkedAppId(appId);
    const existing = this.sessions.get(id);
    if (existing) {
      const session = await existing;
      await session.applyEgress(options.egress);
      return session;
    }
    const opening = this.create(id, options.egress);
    this.sessions.set(id, opening);
    opening.catch(() => this.sessions.delete(id));
    return opening;
  }

  async closeAll(): Promise<void> {
    const open = await Promise.allSettled([...this.sessions.values()]);
    await Promise.all(open.map((result) => (result.status === 'fulfilled' ? result.value.close() : undefined)));
  }

  private async create(id: string, egress: EgressPolicy | null): Promise<LocalSandboxSession> {
    // Dot-named siblings can never collide with an app id (ids start with a letter or digit).
    const places = {
      directory: join(this.root, id),
      snapshots: join(this.root, '.snapshots', id),
      staging: join(this.root, '.staging', id),
      temp: join(this.root, '.tmp', id),
      pidFile: join(this.root, '.run', `${id}.pid`),
    };
    await mkdir(places.directory, { recursive: true });
    const settings = { startTimeoutMs: this.startTimeoutMs, resolve: this.options.resolve, namespaceTools: this.namespaceTools };
    return new LocalSandboxSession(id, places, egress, settings, () => this.sessions.delete(id));
  }
}
