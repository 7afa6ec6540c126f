import { Conflict, DomainError, NotImplemented, Unavailable } from '../errors.js';

/**
 * A tool acts through a third-party account the caller has not connected. The chat shows a
 * "connect" action (a `data-porter-connect` part); the message tells the model what to say.
 */
export class ConnectionRequired extends Conflict {
  constructor(
    readonly toolkit: string,
    readonly tool: string,
  ) {
    super(
      `Connection required: ${tool} acts through the person's ${toolkit} account, which is not connected. ` +
        `Ask them to connect ${toolkit} (the chat offers a Connect button), then try again.`,
      { reason: 'connection-required', toolkit, tool },
    );
  }
}

/** The deployment names no connection broker (`connections: false`). */
export class ConnectionsNotConfigured extends NotImplemented {
  constructor() {
    super(
      'No connection broker is configured: set NANGO_SECRET_KEY, COMPOSIO_API_KEY or PORTER_CONNECTIONS_URL (or the `connections` option)',
    );
  }
}

/** The broker could not be reached or failed on its side. The message never carries a secret. */
export class BrokerUnavailable extends Unavailable {
  constructor(broker: string, what: string) {
    super(`The connection broker (${broker}) is unavailable: ${what}`);
  }
}

/** The broker refused the request, e.g. the toolkit is not set up there. */
export class BrokerRefused extends DomainError {
  constructor(broker: string, what: string) {
    super('validation', `The connection broker (${broker}) refused: ${what}`);
  }
}
