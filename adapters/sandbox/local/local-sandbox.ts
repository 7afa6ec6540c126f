import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { EgressPolicy, Sandbox, SandboxOpenOptions } from '../../../ports/sandbox.js';
import type { Logger } from '../../../ports/logger.js';
import { checkedAppId } from '../app-paths.js';
import { AppSessions } from '../app-sessions.js';
import type { EgressResolver } from '../egress/egress-proxy.js';
import { LocalSandboxSession } from './local-session.js';
import { namespaceSupport, type EgressIsolation, type NamespaceTools } from './network-namespace.js';
import type { NamespaceMaker } from './namespace-link.js';
import { bubblewrapSupport, INSTALL_BUBBLEWRAP, writeSyntheticEtc, type Containment } from './bubblewrap-command.js';
import { DEFAULT_SERVER_LIMITS, ServerPool, type ServerLimits } from './server-pool.js';
import { InvalidInput, Unavailable } from '../../../domain/errors.js';

export interface LocalSandboxOptions {
  /** Where app directories live; each app gets `<root>/<appId>`. Default `.porter/sandboxes`. */
  readonly root?: string;
  /** How long a server may take to listen on `$PORT`. Default 15 s. */
  readonly startTimeoutMs?: number;
  /** How the egress proxy resolves allowed names (tests point names at loopback). Default DNS. */
  readonly resolve?: EgressResolver;
  /**
   * `bubblewrap` (default): each server runs under `bwrap`, contained (see bubblewrap-command.ts);
   * where bwrap is missing or refused, opening a sandbox fails (503) rather than run uncontained.
   * `none`: a plain child process that sees the host's files; for development machines without bwrap.
   */
  readonly containment?: Containment;
  /** Where `bwrap` is. Default: /usr/bin/bwrap, /usr/local/bin/bwrap or /bin/bwrap. */
  readonly bwrap?: string;
  /** Caps on live servers, and the idle time after which one is stopped. */
  readonly limits?: Partial<ServerLimits>;
  /**
   * With `containment: 'none'` only. `auto` (default): an app with an egress policy runs in a
   * network namespace of its own where this machine allows it (Linux with unprivileged user
   * namespaces, `unshare` and `ip`), else cooperatively. `cooperative`: never use a namespace.
   */
  readonly egressIsolation?: 'auto' | 'cooperative';
  /** Where `unshare` and `ip` are. Default: found on PATH, /usr/sbin, /sbin. */
  readonly namespaceTools?: Partial<NamespaceTools>;
  /** Told once per process when containment or namespaces are unavailable. */
  readonly logger?: Pick<Logger, 'warn'>;
}

/** Fallback reasons already logged: one warning per boot, not one per adapter. */
const warned = new Set<string>();

/**
 * Runs each app's server on this machine: its own directory under the root, its own port passed
 * as `PORT`, an environment built from nothing, and its own filtering egress proxy.
 *
 * Contained (the default), the server runs under bubblewrap as an unprivileged user of its own
 * that sees only its folder (at `/app`), the system's `/usr` read-only, a synthetic `/etc`, a
 * private `/tmp` and its own processes; its network namespace's only way out is the proxy, which
 * refuses the host's loopback and private networks (and, with an egress policy, every domain not
 * on it). The kernel is still shared: use the e2b or cloud adapter for code you do not trust at all.
 *
 * With `containment: 'none'` the server is a plain child process of this host's user that sees its
 * filesystem; an app with an egress policy runs in a network namespace of its own where the machine
 * allows it (`egressIsolation: 'namespace'`), else is steered by a preload and proxy variables
 * (`'cooperative'`); apps without a policy run on the host's network. Status `custom`.
 *
 * Live servers are capped (in total and per person) and idle ones stopped: see ServerPool.
 */
export class LocalSandbox implements Sandbox {
  readonly kind = 'custom' as const;
  readonly root: string;
  /** How apps with an egress policy are held to it on this machine (decided once, at construction). */
  readonly egressIsolation: EgressIsolation;
  readonly containment: Containment;
  readonly limits: ServerLimits;
  /** Set when containment is asked for but this machine cannot provide it: every open says why. */
  readonly unavailable: string | null = null;
  private readonly sessions = new AppSessions<LocalSandboxSession>();
  private readonly startTimeoutMs: number;
  private readonly maker: NamespaceMaker | undefined;
  private readonly pool: ServerPool;
  private etc: Promise<void> | null = null;

  constructor(private readonly options: LocalSandboxOptions = {}) {
    this.root = resolve(options.root ?? '.porter/sandboxes');
    this.startTimeoutMs = options.startTimeoutMs ?? 15_000;
    this.limits = { ...DEFAULT_SERVER_LIMITS, ...definedOnly(options.limits ?? {}) };
    this.pool = new ServerPool(this.limits);
    this.containment = options.containment ?? 'bubblewrap';
    if (this.containment === 'bubblewrap') {
      if (options.egressIsolation === 'cooperative')
        throw new InvalidInput(
          "egressIsolation: 'cooperative' applies only with containment: 'none' (a contained app always has a network namespace of its own)",
        );
      this.egressIsolation = 'namespace';
      const support = bubblewrapSupport(options.bwrap);
      if (support.available) this.maker = { kind: 'bubblewrap', bwrap: support.bwrap, etc: join(this.root, '.etc') };
      else {
        this.unavailable = `The local sandbox runs app servers contained by bubblewrap, which is not available here (${support.reason}): ${INSTALL_BUBBLEWRAP}`;
        warnOnce(this.unavailable, options.logger, 'local sandbox: served apps cannot start, bubblewrap is unavailable', {
          reason: support.reason,
          fix: INSTALL_BUBBLEWRAP,
        });
      }
    } else if (options.egressIsolation === 'cooperative') {
      this.egressIsolation = 'cooperative';
    } else {
      const support = namespaceSupport(options.namespaceTools);
      this.egressIsolation = support.available ? 'namespace' : 'cooperative';
      if (support.available) this.maker = { kind: 'unshare', tools: support.tools };
      else {
        warnOnce(
          support.reason,
          options.logger,
          'local sandbox: apps with an egress policy run without a network namespace, so their policy holds only for code that honours proxy settings (egressIsolation: cooperative); use e2b or the cloud sandbox for untrusted code',
          { reason: support.reason },
        );
      }
    }
  }

  /** How many servers run now, in total or for one person. */
  liveServers(owner?: string): number {
    return this.pool.count(owner);
  }

  async open(appId: string, options: SandboxOpenOptions): Promise<LocalSandboxSession> {
    const id = checkedAppId(appId);
    if (this.unavailable) throw new Unavailable(this.unavailable);
    return this.sessions.open(
      id,
      async (session) => {
        if (options.owner !== undefined) session.owner = options.owner;
        await session.applyEgress(options.egress);
      },
      () => this.create(id, options.egress, options.owner),
    );
  }

  async closeAll(): Promise<void> {
    await Promise.all((await this.sessions.opened()).map((session) => session.close()));
  }

  private async create(id: string, egress: EgressPolicy | null, owner: string | undefined): Promise<LocalSandboxSession> {
    // Dot-named siblings can never collide with an app id (ids start with a letter or digit).
    const places = {
      directory: join(this.root, id),
      snapshots: join(this.root, '.snapshots', id),
      staging: join(this.root, '.staging', id),
      temp: join(this.root, '.tmp', id),
      pidFile: join(this.root, '.run', `${id}.pid`),
    };
    await mkdir(places.directory, { recursive: true });
    if (this.maker?.kind === 'bubblewrap') await (this.etc ??= writeSyntheticEtc(this.maker.etc));
    const settings = { startTimeoutMs: this.startTimeoutMs, resolve: this.options.resolve, maker: this.maker, pool: this.pool };
    return new LocalSandboxSession({ id, places, egress, settings, onClose: () => this.sessions.forget(id), owner });
  }
}

function warnOnce(key: string, logger: LocalSandboxOptions['logger'], message: string, fields: Record<string, unknown>): void {
  if (warned.has(key)) return;
  warned.add(key);
  (logger ?? { warn: (text: string, more?: Record<string, unknown>) => console.warn(text, more) }).warn(message, fields);
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
