import { get, porterModule, recordsOf, TOKENS } from '../tokens.js';
import { CONNECTION_TOKENS } from './connections-tokens.js';
import { DELETION_TOKENS } from './deletions-tokens.js';
import type { ConnectionPrimitives } from '../../domain/connections/connection.js';
import { ConnectionBook } from '../../application/connections/connection-book.js';
import { ConnectionRefresh } from '../../application/connections/connection-refresh.js';
import { ConnectionGate } from '../../application/connections/connection-gate.js';
import { InitiateConnection } from '../../application/connections/initiate-connection.js';
import { GetConnection } from '../../application/connections/get-connection.js';
import { ListConnections } from '../../application/connections/list-connections.js';
import { ListToolkits } from '../../application/connections/list-toolkits.js';
import { RemoveConnection } from '../../application/connections/remove-connection.js';
import { connectionRoutes } from '../../adapters/http/routes/connection-routes.js';

/**
 * Connections: the broker loaded at boot (TOKENS.ConnectionBroker, bound by the integrations
 * module; null answers 501), the owner-scoped use cases, the tool gate and the routes. No session adopter
 * is bound on purpose: connected accounts stay with their subject on anonymous adoption.
 */
export const connectionsModule = porterModule((bind) => {
  bind.singleton(CONNECTION_TOKENS.ConnectionBook, (ctx) => new ConnectionBook(recordsOf<ConnectionPrimitives>(ctx, 'connections')));
  bind.singleton(
    CONNECTION_TOKENS.ConnectionGate,
    (ctx) =>
      new ConnectionGate(
        get(ctx, TOKENS.ConnectionBroker),
        get(ctx, CONNECTION_TOKENS.ConnectionBook),
        get(ctx, DELETION_TOKENS.PendingDeletions),
      ),
  );
  bind.singleton(CONNECTION_TOKENS.ConnectionsUseCases, (ctx) => {
    const broker = get(ctx, TOKENS.ConnectionBroker);
    const book = get(ctx, CONNECTION_TOKENS.ConnectionBook);
    const refresh = new ConnectionRefresh({
      book,
      broker,
      clock: get(ctx, TOKENS.Clock),
      audit: get(ctx, TOKENS.AuditTrail),
      logger: get(ctx, TOKENS.Logger),
    });
    return {
      initiate: new InitiateConnection({
        broker,
        book,
        ids: get(ctx, TOKENS.Ids),
        clock: get(ctx, TOKENS.Clock),
        audit: get(ctx, TOKENS.AuditTrail),
      }),
      get: new GetConnection(book, refresh),
      list: new ListConnections(book, refresh, get(ctx, DELETION_TOKENS.PendingDeletions)),
      toolkits: new ListToolkits(broker),
      remove: new RemoveConnection(broker, book, get(ctx, TOKENS.AuditTrail)),
    };
  });
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) => connectionRoutes(get(ctx, CONNECTION_TOKENS.ConnectionsUseCases)));
  bind(TOKENS.StatusBlocks).toDynamicValue((ctx) => {
    const { kind } = get(ctx, TOKENS.ConnectionBroker);
    return { connections: kind === 'none' ? false : kind };
  });
});
