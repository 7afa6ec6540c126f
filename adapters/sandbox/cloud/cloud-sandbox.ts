import type { EgressPolicy, Sandbox, SandboxSession } from '../../../ports/sandbox.js';
import { checkedAppId } from '../app-paths.js';
import { policyDomains } from '../egress/egress-rules.js';
import { CloudClient } from './cloud-client.js';
import { sandboxSchema } from './cloud-client.js';
import { CloudSandboxSession } from './cloud-session.js';

export interface CloudSandboxOptions {
  /** The service's base URL (https; plain http only for loopback). */
  readonly url: string;
  /** Bearer token for the service. Never logged, never put in a URL. */
  readonly token: string;
  /** How long a server may take to listen. Default 30 s. */
  readonly startTimeoutMs?: number;
  /** Deadline for the service's other answers. Default 30 s. */
  readonly requestTimeoutMs?: number;
}

/**
 * Sandboxes run by a service that implements docs/sandbox-cloud-api.md. The service enforces the
 * egress policy (domains only, raw IPs refused) inside its sandboxes; the adapter passes it on.
 */
export class CloudSandbox implements Sandbox {
  readonly kind = 'cloud' as const;
  private readonly client: CloudClient;
  private readonly sessions = new Map<string, CloudSandboxSession>();
  /** Per app: its open session and the policy last sent, so a reopen with the same policy costs no call. */
  private readonly opened = new Map<string, { session: CloudSandboxSession; egress: string }>();
  private readonly startTimeoutMs: number;

  constructor(options: CloudSandboxOptions) {
    this.client = new CloudClient({ url: options.url, token: options.token, requestTimeoutMs: options.requestTimeoutMs ?? 30_000 });
    this.startTimeoutMs = options.startTimeoutMs ?? 30_000;
  }

  async open(appId: string, options: { readonly egress: EgressPolicy | null }): Promise<SandboxSession> {
    const id = checkedAppId(appId);
    const egress = options.egress ? { allowDomains: [...new Set(policyDomains(options.egress))].sort() } : null;
    const cached = this.opened.get(id);
    if (cached && cached.egress === JSON.stringify(egress) && this.sessions.has(cached.session.id)) return cached.session;
    const sandbox = await this.client.json('PUT', `/v1/apps/${encodeURIComponent(id)}/sandbox`, { egress }, sandboxSchema);
    const session =
      this.sessions.get(sandbox.id) ??
      new CloudSandboxSession(sandbox.id, this.client, this.startTimeoutMs, () => {
        this.sessions.delete(sandbox.id);
        this.opened.delete(id);
      });
    this.sessions.set(sandbox.id, session);
    this.opened.set(id, { session, egress: JSON.stringify(egress) });
    return session;
  }

  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.sessions.values()].map((session) => session.close()));
  }
}
