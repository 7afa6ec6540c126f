import type { Connection } from '../../domain/connections/connection.js';
import type { ConnectionView } from '../../ports/use-cases/connections.js';

/** The wire's view of a connection: never the broker's ref or the callback. */
export function viewOf(connection: Connection): ConnectionView {
  return { id: connection.id, toolkit: connection.toolkit, status: connection.status };
}
