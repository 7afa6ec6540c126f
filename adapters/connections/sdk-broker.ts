import { brokerFailure } from './broker-failure.js';

/**
 * What the bring-your-own brokers (Nango, Composio) share: each is reached through its vendor's
 * SDK client, is configured once it is constructed, and lets no SDK error out raw.
 */
export abstract class SdkBroker<Client> {
  readonly kind = 'byo' as const;
  abstract readonly name: string;

  protected constructor(protected readonly sdk: Client) {}

  assertConfigured(): void {}

  /** What `call` makes of the SDK's answer; anything it throws leaves as a broker failure naming what Porter was `doing`. */
  protected async through<T>(doing: string, call: (sdk: Client) => Promise<T>): Promise<T> {
    try {
      return await call(this.sdk);
    } catch (error) {
      throw brokerFailure(this.name, doing, error);
    }
  }
}
