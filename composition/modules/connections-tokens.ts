import { token } from '../tokens.js';
import type { ConnectionBook } from '../../application/connections/connection-book.js';
import type { ToolConnections } from '../../application/connections/connection-gate.js';
import type { ConnectionsUseCases } from '../../ports/use-cases/connections.js';

/** Connections: what connections-module.ts binds (the broker itself is the core's, loaded at boot). */
export const CONNECTION_TOKENS = {
  ConnectionBook: token<ConnectionBook>('ConnectionBook'),
  ConnectionGate: token<ToolConnections>('ConnectionGate'),
  ConnectionsUseCases: token<ConnectionsUseCases>('ConnectionsUseCases'),
};
