import { ContainerModule } from 'inversify';
import { TOKENS } from '../tokens.js';
import type { Store } from '../../ports/store.js';
import type { ConnectionBroker } from '../../ports/connections.js';
import type { ConnectionsUseCases } from '../../ports/use-cases/connections.js';
import type { StatusBlocks } from '../../ports/use-cases/system.js';
import type { ConnectionPrimitives } from '../../domain/connections/connection.js';
import { ConnectionBook } from '../../application/connections/connection-book.js';
import { ConnectionRefresh } from '../../application/connections/connection-refresh.js';
import { ConnectionGate } from '../../application/connections/connection-gate.js';
import { InitiateConnection } from '../../application/connections/initiate-connection.js';
import { GetConnection } from '../../application/connections/get-connection.js';
import { ListConnections } from '../../application/connections/list-connections.js';
import { RemoveConnection } from '../../application/connections/remove-connection.js';
import { connectionRoutes } from '../../adapters/http/routes/connection-routes.js';
import type { WireRoutes } from '../../adapters/http/wire-routes.js';

/**
 * Connections: the broker loaded at boot (TOKENS.ConnectionBroker, bound by the integrations
 * module; null answers 501), the owner-scoped use cases, the tool gate and the routes. No session adopter
 * is bound on purpose: connected accounts stay with their subject on anonymous adoption.
 */
export const connectionsModule = new ContainerModule(({ bind }) => {
  bind(TOKENS.ConnectionBook)
    .toDynamicValue((ctx) => new ConnectionBook(ctx.get<Store>(TOKENS.Store).records<ConnectionPrimitives>('connections')))
    .inSingletonScope();
  bind(TOKENS.ConnectionGate)
    .toDynamicValue((ctx) => new ConnectionGate(ctx.get<ConnectionBroker | null>(TOKENS.ConnectionBroker), ctx.get(TOKENS.ConnectionBook)))
    .inSingletonScope();
  bind<ConnectionsUseCases>(TOKENS.ConnectionsUseCases)
    .toDynamicValue((ctx) => {
      const broker = ctx.get<ConnectionBroker | null>(TOKENS.ConnectionBroker);
      const book = ctx.get<ConnectionBook>(TOKENS.ConnectionBook);
      const refresh = broker
        ? new ConnectionRefresh(book, broker, ctx.get(TOKENS.Clock), ctx.get(TOKENS.AuditTrail), ctx.get(TOKENS.Logger))
        : null;
      return {
        initiate: new InitiateConnection(broker, book, ctx.get(TOKENS.Ids), ctx.get(TOKENS.Clock), ctx.get(TOKENS.AuditTrail)),
        get: new GetConnection(book, refresh),
        list: new ListConnections(book, refresh),
        remove: new RemoveConnection(broker, book, ctx.get(TOKENS.AuditTrail)),
      };
    })
    .inSingletonScope();
  bind<WireRoutes>(TOKENS.WireRoutes).toDynamicValue((ctx) => connectionRoutes(ctx.get(TOKENS.ConnectionsUseCases)));
  bind<Partial<StatusBlocks>>(TOKENS.StatusBlocks).toDynamicValue((ctx) => ({
    connections: ctx.get<ConnectionBroker | null>(TOKENS.ConnectionBroker)?.kind ?? false,
  }));
});
