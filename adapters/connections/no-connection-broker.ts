import { ConnectionsNotConfigured } from '../../domain/connections/errors.js';
import type { BrokerInitiation, BrokerObservation, BrokerToolkit, ConnectionBroker, ProxyResponse } from '../../ports/connections.js';

/**
 * The broker of a deployment that has none (the null object): every call answers
 * ConnectionsNotConfigured (501), so the core never checks for a missing broker. `/status` still
 * says `connections: false`.
 */
export class NoConnectionBroker implements ConnectionBroker {
  readonly kind = 'none' as const;
  readonly name = 'none';

  assertConfigured(): void {
    throw new ConnectionsNotConfigured();
  }

  async toolkits(): Promise<ReadonlyArray<BrokerToolkit>> {
    throw new ConnectionsNotConfigured();
  }

  async initiate(): Promise<BrokerInitiation> {
    throw new ConnectionsNotConfigured();
  }

  async observe(): Promise<BrokerObservation> {
    throw new ConnectionsNotConfigured();
  }

  async remove(): Promise<void> {
    throw new ConnectionsNotConfigured();
  }

  async request(): Promise<ProxyResponse> {
    throw new ConnectionsNotConfigured();
  }
}
