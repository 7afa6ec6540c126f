import { Conflict } from '../../domain/errors.js';
import type { Principal } from '../../domain/principal.js';
import type { ConnectionBroker } from '../../ports/connections.js';
import type { UseCase } from '../../ports/use-case.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { LOST_RACE, retryOnConflict } from '../shared/retry-on-conflict.js';
import type { ConnectionBook, LoadedConnection } from './connection-book.js';

/**
 * `DELETE /connections/:id`: removes the account at the broker (revoking its credentials), then
 * consumes the record with a claim. Broker removal is idempotent, so a retry after a lost race, or
 * a second delete, does no harm; of racing deletes one consumes the record and the others find it gone.
 */
export class RemoveConnection implements UseCase<{ principal: Principal; connectionId: string }, void> {
  constructor(
    private readonly broker: ConnectionBroker,
    private readonly book: ConnectionBook,
    private readonly audit: AuditTrail,
  ) {}

  async execute(input: { principal: Principal; connectionId: string }): Promise<void> {
    const broker = this.broker;
    broker.assertConfigured();
    let current: LoadedConnection | null = await this.book.ownedBy(input.principal.subject, input.connectionId);
    await retryOnConflict(
      async () => {
        if (!current) return;
        const { connection } = current;
        // A connection another broker holds cannot be reached from here; forgetting it is all we can do.
        if (connection.toPrimitives().broker === broker.name) {
          await broker.remove({
            connectionId: connection.id,
            owner: connection.owner,
            toolkit: connection.toolkit,
            ref: connection.brokerRef,
          });
        }
        if (await this.book.consume(current)) {
          await this.audit.record({
            subject: connection.owner,
            action: 'connection.removed',
            outcome: 'removed',
            details: { connectionId: connection.id, toolkit: connection.toolkit, broker: connection.toPrimitives().broker },
          });
          return;
        }
        // A poll may have learned the broker's ref meanwhile: read again and remove that too.
        current = await this.book.find(connection.id);
        return LOST_RACE;
      },
      {
        // Three, not the default: every round calls the broker over the network.
        attempts: 3,
        exhausted: () => {
          if (current) throw new Conflict('The connection kept changing while it was being removed; try again');
        },
      },
    );
  }
}
