import { Composio } from '@composio/core';
import { z } from 'zod';
import type { ConnectionStatus } from '../../domain/connections/connection.js';
import { BrokerRefused } from '../../domain/connections/errors.js';
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

export interface ComposioBrokerOptions {
  /** The project's API key (COMPOSIO_API_KEY). */
  readonly apiKey: string;
  /** Composio's API by default; another deployment's URL (COMPOSIO_BASE_URL) otherwise. */
  readonly baseUrl?: string;
}

const STATUS: Readonly<Record<string, ConnectionStatus>> = {
  INITIALIZING: 'initiated',
  INITIATED: 'initiated',
  ACTIVE: 'active',
  FAILED: 'failed',
  // Disabled, revoked or lapsed: the account no longer acts; the person connects anew.
  EXPIRED: 'expired',
  INACTIVE: 'expired',
  REVOKED: 'expired',
};

const authConfigs = z.object({
  items: z.array(
    z.object({ id: z.string().min(1), status: z.string(), toolkit: z.object({ slug: z.string(), name: z.string().optional() }) }),
  ),
});
const linked = z.object({ connected_account_id: z.string().min(1), redirect_url: z.url(), expires_at: z.string().min(1) });
const connectedAccount = z.object({ id: z.string(), status: z.string(), toolkit: z.object({ slug: z.string() }) });
const proxied = z.object({ status: z.number().int(), data: z.unknown().optional(), headers: z.record(z.string(), z.string()).optional() });

/**
 * Composio through its SDK (@composio/core). The toolkit is Composio's toolkit slug; the project's
 * enabled auth config for it starts a Connect Link (`POST /connected_accounts/link`), which sends the
 * person back to the callback URL. The connected account's id is the broker ref from the start.
 */
export class ComposioBroker extends SdkBroker<Composio> implements ConnectionBroker {
  readonly name = 'composio';

  constructor(options: ComposioBrokerOptions) {
    // No usage analytics and no npm version probe: a runtime calls only the broker it was given.
    super(
      new Composio({
        apiKey: options.apiKey,
        ...defined({ baseURL: options.baseUrl || undefined }),
        allowTracking: false,
        disableVersionCheck: true,
      }),
    );
  }

  async initiate(account: Omit<BrokerAccount, 'ref'>, callbackUrl: string): Promise<BrokerInitiation> {
    const authConfigId = await this.authConfigFor(account.toolkit);
    return this.through('creating a connect link', async (composio) => {
      // The SDK's API client rather than connectedAccounts.link(): that wrapper lists the person's
      // accounts first to refuse a second one (Porter decides that) and drops the link's expiry.
      const link = linked.parse(
        await composio.getClient().link.create({ auth_config_id: authConfigId, user_id: account.owner, callback_url: callbackUrl }),
      );
      return { ref: link.connected_account_id, redirectUrl: link.redirect_url, expiresAt: new Date(link.expires_at).toISOString() };
    });
  }

  async observe(account: BrokerAccount): Promise<BrokerObservation> {
    if (!account.ref) return { status: 'initiated', ref: null };
    try {
      const seen = connectedAccount.parse(await this.sdk.connectedAccounts.get(account.ref));
      return { status: STATUS[seen.status] ?? 'failed', ref: seen.id };
    } catch (error) {
      if (isNotFound(error)) return { status: 'expired', ref: account.ref };
      throw brokerFailure(this.name, 'reading the connected account', error);
    }
  }

  async remove(account: BrokerAccount): Promise<void> {
    if (!account.ref) return;
    try {
      await this.sdk.connectedAccounts.delete(account.ref);
    } catch (error) {
      if (!isNotFound(error)) throw brokerFailure(this.name, 'deleting the connected account', error);
    }
  }

  request(account: BrokerAccount & { ref: string }, request: ProxyRequest): Promise<ProxyResponse> {
    const parameters = [
      ...Object.entries(request.query ?? {}).map(([name, value]) => ({ in: 'query' as const, name, value })),
      ...Object.entries(request.headers ?? {}).map(([name, value]) => ({ in: 'header' as const, name, value })),
    ];
    return this.through('the proxied request', async (composio) => {
      const answer = proxied.parse(
        await composio.tools.proxyExecute({
          endpoint: request.path,
          method: request.method,
          connectedAccountId: account.ref,
          ...defined({ body: request.body, parameters: parameters.length ? parameters : undefined }),
        }),
      );
      return { status: answer.status, headers: plainHeaders(answer.headers), body: answer.data ?? null };
    });
  }

  /** The toolkits of the project's enabled auth configs: what Composio can connect here. */
  async toolkits(): Promise<ReadonlyArray<BrokerToolkit>> {
    const listed = await this.through('listing auth configs', async (composio) => authConfigs.parse(await composio.authConfigs.list({})));
    const enabled = new Map<string, string>();
    for (const item of listed.items) if (item.status === 'ENABLED') enabled.set(item.toolkit.slug, item.toolkit.name ?? item.toolkit.slug);
    return [...enabled].map(([toolkit, name]) => ({ toolkit, name }));
  }

  /** The project's enabled auth config for the toolkit: what Composio connects accounts through. */
  private async authConfigFor(toolkit: string): Promise<string> {
    const listed = await this.through('listing auth configs', async (composio) =>
      authConfigs.parse(await composio.authConfigs.list({ toolkit })),
    );
    const config = listed.items.find((item) => item.status === 'ENABLED' && item.toolkit.slug === toolkit);
    if (!config) throw new BrokerRefused(this.name, `no enabled auth config for toolkit "${toolkit}" in this Composio project`);
    return config.id;
  }
}
