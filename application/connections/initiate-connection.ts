import { Connection } from '../../domain/connections/connection.js';
import type { Clock } from '../../ports/clock.js';
import type { ConnectionBroker } from '../../ports/connections.js';
import type { Ids } from '../../ports/ids.js';
import type { UseCase } from '../../ports/use-case.js';
import type { Initiation } from '../../ports/use-cases/connections.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { ConnectionBook } from './connection-book.js';

/** How long an initiation stays open when the broker does not say (Nango's own sessions last 30 minutes). */
export const DEFAULT_INITIATION_WINDOW_MS = 60 * 60 * 1000;

/** What InitiateConnection is built from. */
export interface InitiateConnectionDeps {
  readonly broker: ConnectionBroker;
  readonly book: ConnectionBook;
  readonly ids: Ids;
  readonly clock: Clock;
  readonly audit: AuditTrail;
}

/**
 * `POST /connections/initiate`: asks the broker to start its consent flow for the caller and
 * records the connection as initiated. The broker owns the redirect; the client polls.
 */
export class InitiateConnection implements UseCase<Initiation, { id: string; redirectUrl: string }> {
  constructor(private readonly deps: InitiateConnectionDeps) {}

  async execute(input: Initiation): Promise<{ id: string; redirectUrl: string }> {
    this.deps.broker.assertConfigured();
    const id = this.deps.ids.mint('connection');
    const owner = input.principal.subject;
    const started = await this.deps.broker.initiate({ connectionId: id, owner, toolkit: input.toolkit }, input.callbackUrl);
    const now = this.deps.clock.now();
    const connection = Connection.initiate({
      id,
      owner,
      toolkit: input.toolkit,
      broker: this.deps.broker.name,
      brokerRef: started.ref,
      callbackUrl: input.callbackUrl,
      now: now.toISOString(),
      initiationExpiresAt: started.expiresAt ?? new Date(now.getTime() + DEFAULT_INITIATION_WINDOW_MS).toISOString(),
    });
    await this.deps.book.save(connection);
    await this.deps.audit.record({
      subject: owner,
      action: 'connection.initiated',
      outcome: 'initiated',
      details: { connectionId: id, toolkit: input.toolkit, broker: this.deps.broker.name },
    });
    return { id, redirectUrl: started.redirectUrl };
  }
}
