import type { ConnectionStatus } from '../../domain/connections/connection.js';
import type {
  BrokerAccount,
  BrokerInitiation,
  BrokerObservation,
  BrokerToolkit,
  ConnectionBroker,
  ProxyRequest,
  ProxyResponse,
} from '../../ports/connections.js';

/**
 * A ConnectionBroker double for use-case tests: each account's status is set by the test, every
 * call is recorded, and `down` makes every call fail as an unreachable broker would.
 */
export class ScriptedBroker implements ConnectionBroker {
  readonly kind = 'byo' as const;
  readonly calls: Array<{ op: string; account: Partial<BrokerAccount> }> = [];
  readonly statuses = new Map<string, ConnectionStatus>();
  readonly removed: string[] = [];
  down = false;
  /** Runs inside observe, after the status was read: lets a test race something against a poll. */
  duringObserve: (() => Promise<void>) | null = null;

  constructor(
    readonly name = 'scripted',
    /** Whether the broker has its own id from the start (Composio, Cloud) or only after consent (Nango). */
    private readonly refUpFront = true,
  ) {}

  assertConfigured(): void {}

  /** What `toolkits` answers; a test sets its own. */
  offered: BrokerToolkit[] = [{ toolkit: 'github', name: 'GitHub' }];

  async toolkits(): Promise<ReadonlyArray<BrokerToolkit>> {
    this.calls.push({ op: 'toolkits', account: {} });
    if (this.down) throw new Error('broker down');
    return this.offered;
  }

  async initiate(account: Omit<BrokerAccount, 'ref'>, callbackUrl: string): Promise<BrokerInitiation> {
    this.calls.push({ op: 'initiate', account });
    if (this.down) throw new Error('broker down');
    this.statuses.set(account.connectionId, 'initiated');
    return {
      ref: this.refUpFront ? `ref-${account.connectionId}` : null,
      redirectUrl: `https://broker.example/consent/${account.connectionId}?back=${encodeURIComponent(callbackUrl)}`,
      expiresAt: null,
    };
  }

  async observe(account: BrokerAccount): Promise<BrokerObservation> {
    this.calls.push({ op: 'observe', account });
    if (this.down) throw new Error('broker down');
    const status = this.statuses.get(account.connectionId) ?? 'expired';
    await this.duringObserve?.();
    return { status, ref: account.ref ?? (status === 'active' ? `ref-${account.connectionId}` : null) };
  }

  async remove(account: BrokerAccount): Promise<void> {
    this.calls.push({ op: 'remove', account });
    if (this.down) throw new Error('broker down');
    this.removed.push(account.connectionId);
    this.statuses.delete(account.connectionId);
  }

  async request(account: BrokerAccount & { ref: string }, request: ProxyRequest): Promise<ProxyResponse> {
    this.calls.push({ op: 'request', account });
    return { status: 200, headers: {}, body: { as: account.ref, ...request } };
  }

  /** What the person finishing consent at the broker amounts to. */
  consent(connectionId: string, outcome: ConnectionStatus = 'active'): void {
    this.statuses.set(connectionId, outcome);
  }
}
