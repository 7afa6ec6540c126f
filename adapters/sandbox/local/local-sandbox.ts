import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { EgressPolicy, Sandbox, SandboxOpenOptions } from '../../../ports/sandbox.js';
import type { Logger } from '../../../ports/logger.js';
import { checkedAppId } from '../app-paths.js';
import { AppSessions } from '../app-sessions.js';
import type { EgressResolver } from '../egress/egress-proxy.js';
import { LocalSandboxSession, type LocalSessionSettings } from './local-session.js';
import { namespaceSupport, type EgressIsolation, type NamespaceTools } from './network-namespace.js';
import { bubblewrapSupport, defaultIdentity, INSTALL_BUBBLEWRAP, type Containment, type HostIdentity } from './bubblewrap-command.js';
import { BubblewrapLauncher, UncontainedLauncher, type GateLauncher } from './gate-launchers.js';
import { appLimitsOf, type AppLimits } from './app-limits.js';
import { seccompFilter } from './seccomp-filter.js';
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
  /**
   * The host identity sandboxes run as when Porter runs as root (default nobody, 65534:65534); it
   * may not be root. Porter running as anyone else runs them as itself, and may not name another.
   */
  readonly runAs?: HostIdentity;
  /** Caps on live servers, and the idle time after which one is stopped. */
  readonly limits?: Partial<ServerLimits>;
  /** What each app may use (under bubblewrap): see AppLimits. */
  readonly appLimits?: Partial<AppLimits>;
  /**
   * Sandboxes kept started and waiting for the next start (under bubblewrap), so a start costs
   * little more than the app's own boot. Default 2 (two changes in a row both find one); 0 starts
   * each on demand. Each waiting one is a small Node process.
   */
  readonly warm?: number;
  /**
   * With `containment: 'none'` only. `auto` (default): an app with an egress policy runs in a
   * network namespace of its own where this machine allows it (Linux with unprivileged user
   * namespaces, `unshare` and `ip`), else cooperatively. `cooperative`: never use a namespace.
   */
  readonly egressIsolation?: 'auto' | 'cooperative';
  /** Where `unshare` and `ip` are. Default: found on PATH, /usr/sbin, /sbin. */
  readonly namespaceTools?: Partial<NamespaceTools>;
  /** Told once per process when containment or namespaces are unavailable, and when an app crosses a limit. */
  readonly logger?: Pick<Logger, 'warn'>;
}

/** Fallback reasons already logged: one warning per boot, not one per adapter. */
const warned = new Set<string>();

/**
 * Runs each app's server on this machine, each start from a fresh copy of the app's files in a
 * sandbox of its own, reached only through descriptors its gate hands over (see local-session.ts).
 *
 * Contained (the default), the copy runs under bubblewrap: the gate in a sandbox with its own
 * network and nothing of the host's files, the app nested inside it as a host identity with no
 * privileges, pid 1 of its own PID namespace, under a seccomp filter, held to its limits
 * (processes, memory, CPU time, disk). Its network's only way out is its egress proxy, which
 * refuses the host's loopback and private networks (and, with an egress policy, every domain not
 * on it). The kernel is still shared: use the e2b or cloud adapter for code you do not trust at all.
 *
 * With `containment: 'none'` the server is a plain child process of this host's user that sees its
 * filesystem; an app with an egress policy runs in a network namespace of its own where the machine
 * allows it (`egressIsolation: 'namespace'`), else is steered by a preload and proxy variables
 * (`'cooperative'`); apps without a policy run on the host's network. No limits apply. Status `custom`.
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
  /** What each app may use; null without containment (nothing holds a plain process to them). */
  readonly appLimits: AppLimits | null;
  /** Set when containment is asked for but this machine cannot provide it: every open says why. */
  readonly unavailable: string | null = null;
  private readonly sessions = new AppSessions<LocalSandboxSession>();
  private readonly startTimeoutMs: number;
  private readonly pool: ServerPool;
  private readonly launcher: GateLauncher | null = null;
  private readonly policyLauncher: GateLauncher | undefined;

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
      this.appLimits = appLimitsOf(options.appLimits);
      const identity = identityOf(options.runAs);
      const support = bubblewrapSupport(options.bwrap, identity);
      const missing = !support.available ? support.reason : seccompFilter() ? null : `no seccomp filter is written for ${process.arch}`;
      if (support.available && !missing) {
        this.launcher = new BubblewrapLauncher({
          bwrap: support.bwrap,
          prlimit: support.prlimit,
          nice: support.nice,
          identity,
          limits: this.appLimits,
          warm: warmCount(options.warm),
        });
      } else {
        this.unavailable = `The local sandbox runs app servers contained by bubblewrap, which is not available here (${missing}): ${INSTALL_BUBBLEWRAP}`;
        warnOnce(this.unavailable, options.logger, 'local sandbox: served apps cannot start, bubblewrap is unavailable', {
          reason: missing,
          fix: INSTALL_BUBBLEWRAP,
        });
      }
    } else {
      if (options.runAs) throw new InvalidInput("runAs applies only with containment: 'bubblewrap'");
      this.appLimits = null;
      this.launcher = new UncontainedLauncher(null);
      if (options.egressIsolation === 'cooperative') this.egressIsolation = 'cooperative';
      else {
        const support = namespaceSupport(options.namespaceTools);
        this.egressIsolation = support.available ? 'namespace' : 'cooperative';
        if (support.available) this.policyLauncher = new UncontainedLauncher(support.tools);
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
  }

  /** How many servers run now, in total or for one person. */
  liveServers(owner?: string): number {
    return this.pool.count(owner);
  }

  async open(appId: string, options: SandboxOpenOptions): Promise<LocalSandboxSession> {
    const id = checkedAppId(appId);
    if (this.unavailable || !this.launcher) throw new Unavailable(this.unavailable ?? 'The local sandbox is not available');
    const launcher = this.launcher;
    launcher.warmUp();
    return this.sessions.open(
      id,
      async (session) => {
        if (options.owner !== undefined) session.owner = options.owner;
        await session.applyEgress(options.egress);
      },
      () => this.create(id, options.egress, options.owner, launcher),
    );
  }

  async closeAll(): Promise<void> {
    await Promise.all((await this.sessions.opened()).map((session) => session.close()));
    await Promise.all([this.launcher?.close(), this.policyLauncher?.close()]);
  }

  private async create(
    id: string,
    egress: EgressPolicy | null,
    owner: string | undefined,
    launcher: GateLauncher,
  ): Promise<LocalSandboxSession> {
    // Dot-named siblings can never collide with an app id (ids start with a letter or digit).
    const places = {
      directory: join(this.root, id),
      snapshots: join(this.root, '.snapshots', id),
      staging: join(this.root, '.staging', id),
      temp: join(this.root, '.tmp', id),
      runs: join(this.root, '.run', id),
    };
    // Copies a host that died mid-run left behind (outside bubblewrap); a live one is never here.
    await rm(places.runs, { recursive: true, force: true });
    const settings: LocalSessionSettings = {
      startTimeoutMs: this.startTimeoutMs,
      resolve: this.options.resolve,
      launcher,
      policyLauncher: this.policyLauncher,
      pool: this.pool,
      limits: this.appLimits,
      logger: this.options.logger,
    };
    return new LocalSandboxSession({ id, places, egress, settings, onClose: () => this.sessions.forget(id), owner });
  }
}

/** The identity sandboxes run as: never root. */
function identityOf(runAs: HostIdentity | undefined): HostIdentity | null {
  const self = process.getuid?.();
  if (runAs === undefined) return defaultIdentity();
  if (runAs.uid === 0 || runAs.gid === 0)
    throw new InvalidInput('runAs may not be root (uid or gid 0): app code would run as root on the host');
  if (self !== 0 && runAs.uid !== self)
    throw new InvalidInput(`runAs: only a root host may run sandboxes as another identity (this host is uid ${self})`);
  return self === 0 ? runAs : null;
}

function warmCount(warm: number | undefined): number {
  if (warm === undefined) return 2;
  if (!Number.isInteger(warm) || warm < 0 || warm > 16)
    throw new InvalidInput(`warm must be an integer from 0 to 16 (got ${String(warm)})`);
  return warm;
}

function warnOnce(key: string, logger: LocalSandboxOptions['logger'], message: string, fields: Record<string, unknown>): void {
  if (warned.has(key)) return;
  warned.add(key);
  (logger ?? { warn: (text: string, more?: Record<string, unknown>) => console.warn(text, more) }).warn(message, fields);
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
