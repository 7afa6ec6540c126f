import { ConnectionRequired } from '../../domain/connections/errors.js';
import { InvalidInput } from '../../domain/errors.js';
import type { Principal } from '../../domain/principal.js';
import type { ConnectedAccount, ConnectionBroker, ProxyRequest } from '../../ports/connections.js';
import type { StreamedData } from '../../ports/tool-registry.js';
import type { ConnectionBook } from './connection-book.js';
import type { HeldDeletions } from '../deletions/deletable.js';

/** The part a watching chat receives when a tool needs an account the person has not connected. */
export const CONNECT_PART = 'data-porter-connect';

/** What the chrome renders as a "Connect <toolkit>" action (see README: connections). */
export interface ConnectPart {
  readonly toolkit: string;
  readonly tool: string;
  readonly toolCallId: string;
}

export interface ConnectionNeed {
  readonly principal: Principal;
  readonly toolkit: string;
  readonly tool: string;
  readonly toolCallId: string;
  readonly writeData?: (part: StreamedData) => void;
}

/** What the guard's tool runner asks before running a tool that declares a `connection`. */
export interface ToolConnections {
  /** The caller's active account of the toolkit; throws ConnectionRequired when there is none. */
  open(need: ConnectionNeed): Promise<ConnectedAccount>;
}

/**
 * Hands a tool the caller's active account of its toolkit, or tells the watching chat to offer a
 * connect action and fails the call with `ConnectionRequired`, whose message the model relays.
 */
export class ConnectionGate implements ToolConnections {
  constructor(
    private readonly broker: ConnectionBroker,
    private readonly book: ConnectionBook,
    private readonly held?: HeldDeletions,
  ) {}

  async open(need: ConnectionNeed): Promise<ConnectedAccount> {
    const broker = this.broker;
    broker.assertConfigured();
    const active = await this.book.activeOf(need.principal.subject, need.toolkit, broker.name);
    // Disconnecting stops use at once; only the broker's removal waits for the undo window.
    const found = active && (await this.held?.holds(active.connection.id)) ? null : active;
    const ref = found?.connection.brokerRef;
    if (!found || !ref) {
      const data: ConnectPart = { toolkit: need.toolkit, tool: need.tool, toolCallId: need.toolCallId };
      need.writeData?.({ type: CONNECT_PART, id: `porter-connect:${need.toolCallId}`, data });
      throw new ConnectionRequired(need.toolkit, need.tool);
    }
    const account = { connectionId: found.connection.id, owner: found.connection.owner, toolkit: need.toolkit, ref };
    return {
      id: found.connection.id,
      toolkit: need.toolkit,
      request: (request) => broker.request(account, checked(request)),
    };
  }
}

/**
 * Only paths on the provider's own API: the broker attaches the account's credentials, so an
 * absolute URL could carry them anywhere.
 */
function checked(request: ProxyRequest): ProxyRequest {
  if (!request.path.startsWith('/') || request.path.startsWith('//') || /[\r\n]/.test(request.path)) {
    throw new InvalidInput("A connected-account request takes a path on the provider's API, such as /user (not a URL)");
  }
  return request;
}
