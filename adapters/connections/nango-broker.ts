import { Nango } from '@nangohq/node';
import { z } from 'zod';
import type {
  BrokerAccount,
  BrokerInitiation,
  BrokerObservation,
  BrokerToolkit,
  ConnectionBroker,
  ProxyRequest,
  ProxyResponse,
} from '../../ports/connections.js';
import { brokerFailure, isNotFound } from './broker-failure.js';
import { plainHeaders } from './plain-headers.js';
import { SdkBroker } from './sdk-broker.js';
import { defined } from '../../domain/defined.js';

export interface NangoBrokerOptions {
  /** The environment's secret key (NANGO_SECRET_KEY). */
  readonly secretKey: string;
  /** Nango Cloud by default; a self-hosted server's URL (NANGO_HOST) otherwise. */
  readonly host?: string;
}

/** The tag that ties a Nango connection to Porter's `con_` id; Nango copies session tags onto it. */
const PORTER_TAG = 'porter_connection';
const OWNER_TAG = 'end_user_id';

const connectSession = z.object({ data: z.object({ connect_link: z.url(), expires_at: z.string().min(1) }) });
const integrations = z.object({
  configs: z.array(z.object({ unique_key: z.string().min(1), display_name: z.string().nullish(), provider: z.string() })),
});
const connectionList = z.object({
  connections: z.array(
    z.object({
      connection_id: z.string().min(1),
      provider_config_key: z.string(),
      errors: z.array(z.object({ type: z.string() })).default([]),
      tags: z.record(z.string(), z.string()).nullish(),
    }),
  ),
});

/**
 * Nango through its Node SDK (@nangohq/node). A connect session tagged with the Porter id and the
 * owner starts the flow at Nango's hosted Connect UI (`connect_link`); Nango copies the tags onto
 * the connection it creates, so polling finds it by tag. The toolkit is Nango's integration id.
 * Nango's Connect UI does not redirect back, so the callback URL is kept only on Porter's side.
 */
export class NangoBroker extends SdkBroker<Nango> implements ConnectionBroker {
  readonly name = 'nango';

  constructor(options: NangoBrokerOptions) {
    super(new Nango({ secretKey: options.secretKey, ...defined({ host: options.host || undefined }) }));
  }

  /** The environment's integrations: a connection names one by its id (`unique_key`). */
  toolkits(): Promise<ReadonlyArray<BrokerToolkit>> {
    return this.through('listing integrations', async (nango) =>
      integrations
        .parse(await nango.listIntegrations())
        .configs.map((c) => ({ toolkit: c.unique_key, name: c.display_name || c.provider })),
    );
  }

  initiate(account: Omit<BrokerAccount, 'ref'>, _callbackUrl: string): Promise<BrokerInitiation> {
    return this.through('starting a connect session', async (nango) => {
      const session = connectSession.parse(
        await nango.createConnectSession({
          tags: { [OWNER_TAG]: account.owner, [PORTER_TAG]: account.connectionId },
          allowed_integrations: [account.toolkit],
        }),
      );
      return { ref: null, redirectUrl: session.data.connect_link, expiresAt: new Date(session.data.expires_at).toISOString() };
    });
  }

  async observe(account: BrokerAccount): Promise<BrokerObservation> {
    const found = await this.lookup(account);
    if (!found) return { status: account.ref ? 'expired' : 'initiated', ref: account.ref };
    // Nango records a failed credential refresh as an `auth` error on the connection.
    return { status: found.errors.some((e) => e.type === 'auth') ? 'failed' : 'active', ref: found.connection_id };
  }

  async remove(account: BrokerAccount): Promise<void> {
    const ref = account.ref ?? (await this.lookup(account))?.connection_id;
    if (!ref) return;
    try {
      await this.sdk.deleteConnection(account.toolkit, ref);
    } catch (error) {
      if (!isNotFound(error)) throw brokerFailure(this.name, 'deleting the connection', error);
    }
  }

  async request(account: BrokerAccount & { ref: string }, request: ProxyRequest): Promise<ProxyResponse> {
    let response: { status: number; headers: unknown; data: unknown };
    try {
      response = await this.sdk.proxy({
        providerConfigKey: account.toolkit,
        connectionId: account.ref,
        endpoint: request.path,
        method: request.method,
        ...defined({
          params: request.query ? { ...request.query } : undefined,
          headers: request.headers ? { ...request.headers } : undefined,
          data: request.body,
        }),
      });
    } catch (error) {
      const answered = (error as { response?: { status: number; headers: unknown; data: unknown } }).response;
      // An answer with an error status is passed on as it came (a provider's 404 is the tool's business);
      // only no answer at all is a broker failure.
      if (!answered) throw brokerFailure(this.name, 'the proxied request', error);
      response = answered;
    }
    return { status: response.status, headers: plainHeaders(response.headers), body: response.data };
  }

  /** The Nango connection tagged with this Porter id, if the person finished the flow. */
  private async lookup(account: BrokerAccount) {
    const listed = await this.through('listing connections', async (nango) =>
      connectionList.parse(await nango.listConnections({ integrationId: account.toolkit, tags: { [PORTER_TAG]: account.connectionId } })),
    );
    // The tags must name this owner too: a tag is a lookup key, not proof of whose account it is.
    return (
      listed.connections.find(
        (c) =>
          c.provider_config_key === account.toolkit &&
          c.tags?.[PORTER_TAG] === account.connectionId &&
          c.tags?.[OWNER_TAG] === account.owner,
      ) ?? null
    );
  }
}
