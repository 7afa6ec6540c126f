import type { Connection } from '../../domain/connections/connection.js';
import type { Clock } from '../../ports/clock.js';
import type { ConnectionBroker } from '../../ports/connections.js';
import type { Logger } from '../../ports/logger.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { LOST_RACE, retryOnConflict } from '../shared/retry-on-conflict.js';
import type { ConnectionBook, LoadedConnection } from './connection-book.js';

/** What ConnectionRefresh is built from. */
export interface ConnectionRefreshDeps {
  readonly book: ConnectionBook;
  readonly broker: ConnectionBroker;
  readonly clock: Clock;
  readonly audit: AuditTrail;
  readonly logger: Logger;
}

/**
 * Brings a stored connection up to date with its broker, which is how a poll learns the outcome
 * of a flow the broker owns. A broker that cannot be reached leaves the stored state (with the
 * initiation deadline applied), so a poller keeps polling instead of failing.
 */
export class ConnectionRefresh {
  constructor(private readonly deps: ConnectionRefreshDeps) {}

  /** Throws ConnectionsNotConfigured when the deployment has no broker (the null broker). */
  assertConfigured(): void {
    this.deps.broker.assertConfigured();
  }

  /** The connection as it stands now, or null when it was removed meanwhile. */
  async refresh(loaded: LoadedConnection): Promise<Connection | null> {
    let current: LoadedConnection | null = loaded;
    // A lost swap means a concurrent poll or delete moved first: read again and fold on top of it.
    return retryOnConflict(
      async () => {
        if (!current) return null;
        const { connection } = current;
        if (!connection.live || connection.toPrimitives().broker !== this.deps.broker.name) return connection;
        const next = connection.observe(await this.reported(connection), this.deps.clock.now().toISOString());
        if (next === connection) return connection;
        if (await this.deps.book.swap(current, next)) {
          if (next.status !== connection.status) {
            await this.deps.audit.record({
              subject: next.owner,
              action: `connection.${next.status}`,
              outcome: next.status,
              details: { connectionId: next.id, toolkit: next.toolkit, broker: this.deps.broker.name },
            });
          }
          return next;
        }
        current = await this.deps.book.find(connection.id);
        return LOST_RACE;
      },
      // Three, not the default: every round asks the broker over the network, and a poll that
      // loses three times simply shows the stored state and polls again.
      { attempts: 3, exhausted: () => current?.connection ?? null },
    );
  }

  private async reported(connection: Connection): Promise<{ status: Connection['status']; brokerRef: string | null }> {
    try {
      const seen = await this.deps.broker.observe({
        connectionId: connection.id,
        owner: connection.owner,
        toolkit: connection.toolkit,
        ref: connection.brokerRef,
      });
      return { status: seen.status, brokerRef: seen.ref };
    } catch (error) {
      this.deps.logger.warn('could not ask the connection broker; showing the stored state', {
        connectionId: connection.id,
        broker: this.deps.broker.name,
        cause: error instanceof Error ? error.message : 'unknown',
      });
      return { status: connection.status, brokerRef: connection.brokerRef };
    }
  }
}
