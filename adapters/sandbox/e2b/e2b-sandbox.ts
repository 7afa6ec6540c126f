import { Sandbox as E2bInstance, type ConnectionOpts, type SandboxOpts } from 'e2b';
import type { EgressPolicy, Sandbox, SandboxSession } from '../../../ports/sandbox.js';
import { checkedAppId } from '../app-paths.js';
import { AppSessions } from '../app-sessions.js';
import { SandboxSnapshotNotFound } from '../sandbox-errors.js';
import { e2bCall } from './e2b-errors.js';
import { e2bEgressRules } from './e2b-network.js';
import { E2bSandboxSession } from './e2b-session.js';
import { APP_METADATA_KEY, ancestorsIn, childMetadata, discardApp, type Lineage } from './e2b-lineage.js';
import type { E2bSandboxOptions } from './e2b-sandbox-options.js';

export { APP_METADATA_KEY, type E2bSandboxOptions };

/**
 * One e2b sandbox per app, found again by its metadata. Files go through envd, the server runs
 * as a background command, traffic goes through e2b's proxy with the sandbox's traffic token
 * (sandboxes are created non-public: only Porter reaches them). Snapshots are e2b snapshots;
 * restoring one creates a sandbox from it and kills the old one.
 */
export class E2bSandbox implements Sandbox {
  readonly kind = 'e2b' as const;
  private readonly sessions = new AppSessions<E2bSandboxSession>();
  /** Each app's current firewall rules: a restore creates its new sandbox with them. */
  private readonly rules = new Map<string, EgressRules>();
  private readonly connection: ConnectionOpts;
  private readonly template: string;
  private readonly port: number;
  private readonly timeoutMs: number;
  private readonly startTimeoutMs: number;

  constructor(private readonly options: E2bSandboxOptions = {}) {
    this.connection = definedOnly({
      apiKey: options.apiKey,
      domain: options.domain,
      apiUrl: options.apiUrl,
      sandboxUrl: options.sandboxUrl,
      requestTimeoutMs: options.requestTimeoutMs,
    });
    this.template = options.template ?? 'base';
    this.port = options.port ?? 3000;
    this.timeoutMs = options.timeoutMs ?? 3_600_000;
    this.startTimeoutMs = options.startTimeoutMs ?? 30_000;
  }

  async open(appId: string, options: { readonly egress: EgressPolicy | null }): Promise<SandboxSession> {
    const id = checkedAppId(appId);
    const rules = e2bEgressRules(options.egress);
    const previous = this.rules.get(id);
    this.rules.set(id, rules);
    return this.sessions.open(
      id,
      async (session) => {
        // Callers reopen on every request to a served app; only a changed policy costs a call.
        if (JSON.stringify(previous) !== JSON.stringify(rules))
          await e2bCall(() => E2bInstance.updateNetwork(session.sandboxId, rules, this.connection));
      },
      () => this.connectOrCreate(id, rules),
    );
  }

  async closeAll(): Promise<void> {
    await Promise.allSettled((await this.sessions.opened()).map((session) => session.close()));
  }

  private async connectOrCreate(id: string, rules: EgressRules): Promise<E2bSandboxSession> {
    const found = await e2bCall(() =>
      E2bInstance.list({
        ...this.connection,
        query: { metadata: { [APP_METADATA_KEY]: id }, state: ['running', 'paused'] },
        limit: 20,
      }).nextItems(),
    );
    // After an interrupted restore two may exist for a moment; the newest is the current rung.
    const newest = found.sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime())[0];
    let instance: E2bInstance;
    let ancestors: string[] = [];
    if (newest) {
      instance = await e2bCall(() => E2bInstance.connect(newest.sandboxId, { ...this.connection, timeoutMs: this.timeoutMs }));
      ancestors = ancestorsIn(newest.metadata);
      await e2bCall(() => instance.updateNetwork(rules));
    } else {
      instance = await e2bCall(() => this.create({ [APP_METADATA_KEY]: id }, rules, this.template));
      // A template's root belongs to root; the default user (which runs the server) needs /app.
      // Run from / with a relative name, so the command names no absolute path.
      await e2bCall(() => instance.commands.run('mkdir -p app && chmod 777 app', { cwd: '/', user: 'root' }));
    }
    return new E2bSandboxSession({
      id,
      instance,
      ancestors,
      settings: {
        port: this.port,
        startTimeoutMs: this.startTimeoutMs,
        sandboxUrl: this.options.sandboxUrl,
        createFrom: (snapshotId, parent) =>
          e2bCall(
            () => this.create(childMetadata(id, parent), this.rules.get(id) ?? rules, snapshotId),
            () => new SandboxSnapshotNotFound(),
          ),
        discard: (current: Lineage) => discardApp(id, this.connection, current),
      },
      onClose: () => this.sessions.forget(id),
    });
  }

  private create(metadata: Record<string, string>, rules: EgressRules, template: string): Promise<E2bInstance> {
    const options: SandboxOpts = {
      ...this.connection,
      metadata,
      timeoutMs: this.timeoutMs,
      network: { ...rules, allowPublicTraffic: false },
      lifecycle: { onTimeout: 'pause', autoResume: true },
    };
    return E2bInstance.create(template, options);
  }
}

type EgressRules = ReturnType<typeof e2bEgressRules>;

function definedOnly<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
