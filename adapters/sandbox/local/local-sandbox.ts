import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { EgressPolicy, Sandbox } from '../../../ports/sandbox.js';
import { checkedAppId } from '../app-paths.js';
import type { EgressResolver } from '../egress/egress-proxy.js';
import { LocalSandboxSession } from './local-session.js';

export interface LocalSandboxOptions {
  /** Where app directories live; each app gets `<root>/<appId>`. Default `.porter/sandboxes`. */
  readonly root?: string;
  /** How long a server may take to listen on `$PORT`. Default 15 s. */
  readonly startTimeoutMs?: number;
  /** How the egress proxy resolves allowed names (tests point names at loopback). Default DNS. */
  readonly resolve?: EgressResolver;
}

/**
 * Runs each app's server as a child process of this host: its own directory under the root, its
 * own free port passed as `PORT`, an environment built from nothing, and — for apps with an egress
 * policy — its own filtering proxy. Status `custom`.
 *
 * The isolation is a process boundary, not a machine one: the server runs as this host's user.
 * Use the e2b or cloud adapter for code you do not trust.
 */
export class LocalSandbox implements Sandbox {
  readonly kind = 'custom' as const;
  readonly root: string;
  private readonly sessions = new Map<string, Promise<LocalSandboxSession>>();
  private readonly startTimeoutMs: number;

  constructor(private readonly options: LocalSandboxOptions = {}) {
    this.root = resolve(options.root ?? '.porter/sandboxes');
    this.startTimeoutMs = options.startTimeoutMs ?? 15_000;
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
    return new LocalSandboxSession(id, places, egress, { startTimeoutMs: this.startTimeoutMs, resolve: this.options.resolve }, () => this.sessions.delete(id));
  }
}
