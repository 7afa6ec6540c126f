import { randomBytes } from 'node:crypto';
import { providerEcho, restamp, StandInBroker, type BrokerReply, type SeenRequest } from './broker-http.js';

type ComposioStatus = 'INITIALIZING' | 'INITIATED' | 'ACTIVE' | 'FAILED' | 'EXPIRED' | 'INACTIVE' | 'REVOKED';

interface AuthConfig {
  readonly id: string;
  readonly toolkit: string;
  status: 'ENABLED' | 'DISABLED';
}

interface ComposioAccount {
  readonly id: string;
  readonly userId: string;
  readonly authConfigId: string;
  readonly toolkit: string;
  readonly callbackUrl: string | null;
  readonly linkToken: string;
  readonly createdAt: string;
  status: ComposioStatus;
  updatedAt: string;
}

/**
 * A local server speaking the part of Composio's v3.1 API that @composio/core calls for Porter:
 * `GET /api/v3.1/auth_configs`, `POST /api/v3.1/connected_accounts/link`, `GET
 * /api/v3.1/connected_accounts` (comma-separated filters), `GET|DELETE
 * /api/v3.1/connected_accounts/:id` and `POST /api/v3.1/tools/execute/proxy`, with `x-api-key`
 * authentication. The link's redirect URL opens a stand-in consent page that marks the account
 * ACTIVE (or FAILED with `?refuse=1`) and redirects to the callback URL with `status=success|failed`,
 * as Composio's Connect Link does.
 */
export class ComposioBrokerServer extends StandInBroker {
  readonly authConfigs: AuthConfig[];
  readonly accounts = new Map<string, ComposioAccount>();

  constructor(
    readonly apiKey: string,
    toolkits: string[] = ['github', 'slack'],
  ) {
    super();
    this.authConfigs = toolkits.map((toolkit) => ({ id: `ac_${toolkit}${randomBytes(3).toString('hex')}`, toolkit, status: 'ENABLED' }));
    const refusal = { status: 401, body: { error: { message: 'Invalid API key', code: 10401, slug: 'Auth_InvalidApiKey', status: 401 } } };
    this.http
      .guarded((request) => request.headers['x-api-key'] === this.apiKey, refusal, [
        ['GET', /^\/api\/v3\.1\/auth_configs$/, (request) => this.listAuthConfigs(request)],
        ['POST', /^\/api\/v3\.1\/connected_accounts\/link$/, (request) => this.link(request)],
        ['GET', /^\/api\/v3\.1\/connected_accounts$/, (request) => this.list(request)],
        ['GET', /^\/api\/v3\.1\/connected_accounts\/([^/]+)$/, (_r, [id]) => this.retrieve(id!)],
        ['DELETE', /^\/api\/v3\.1\/connected_accounts\/([^/]+)$/, (_r, [id]) => this.remove(id!)],
        ['POST', /^\/api\/v3\.1\/tools\/execute\/proxy$/, (request) => this.proxy(request)],
      ])
      .on('GET', /^\/link\/([^/]+)$/, (request, [token]) => this.consent(token!, request.query.get('refuse') === '1'));
  }

  setStatus(accountId: string, status: ComposioStatus): void {
    restamp(this.accounts.get(accountId)!, status);
  }

  private listAuthConfigs(request: SeenRequest): BrokerReply {
    const toolkit = request.query.get('toolkit_slug');
    const items = this.authConfigs
      .filter((c) => !toolkit || c.toolkit === toolkit)
      .map((c) => ({
        id: c.id,
        uuid: c.id,
        name: `${c.toolkit} auth`,
        no_of_connections: [...this.accounts.values()].filter((a) => a.authConfigId === c.id).length,
        status: c.status,
        type: 'default',
        toolkit: { slug: c.toolkit, logo: `https://logos.example/${c.toolkit}.png` },
        auth_scheme: 'OAUTH2',
        is_composio_managed: true,
        tool_access_config: { tools_for_connected_account_creation: [] },
      }));
    return { status: 200, body: { items, next_cursor: null, total_pages: 1, current_page: 1, total_items: items.length } };
  }

  private link(request: SeenRequest): BrokerReply {
    const body = request.body as { auth_config_id?: string; user_id?: string; callback_url?: string };
    const config = this.authConfigs.find((c) => c.id === body?.auth_config_id);
    if (!config || !body.user_id)
      return { status: 400, body: { error: { message: 'Invalid auth config or user id', code: 1400, status: 400 } } };
    const id = `ca_${randomBytes(6).toString('hex')}`;
    const linkToken = `lk_${randomBytes(12).toString('hex')}`;
    const now = new Date().toISOString();
    this.accounts.set(id, {
      id,
      userId: body.user_id,
      authConfigId: config.id,
      toolkit: config.toolkit,
      callbackUrl: body.callback_url ?? null,
      linkToken,
      createdAt: now,
      updatedAt: now,
      status: 'INITIATED',
    });
    return {
      status: 201,
      body: {
        connected_account_id: id,
        link_token: linkToken,
        redirect_url: `${this.http.url}/link/${linkToken}`,
        expires_at: new Date(Date.now() + 600_000).toISOString(),
      },
    };
  }

  private list(request: SeenRequest): BrokerReply {
    const csv = (name: string) => request.query.get(name)?.split(',');
    const users = csv('user_ids');
    const configs = csv('auth_config_ids');
    const statuses = csv('statuses');
    const toolkits = csv('toolkit_slugs');
    const items = [...this.accounts.values()]
      .filter(
        (a) =>
          (!users || users.includes(a.userId)) &&
          (!configs || configs.includes(a.authConfigId)) &&
          (!statuses || statuses.includes(a.status)) &&
          (!toolkits || toolkits.includes(a.toolkit)),
      )
      .map((a) => this.raw(a));
    return { status: 200, body: { items, next_cursor: null, total_pages: 1, current_page: 1, total_items: items.length } };
  }

  private retrieve(id: string): BrokerReply {
    const account = this.accounts.get(id);
    return account ? { status: 200, body: this.raw(account) } : notFound(id);
  }

  private remove(id: string): BrokerReply {
    if (!this.accounts.delete(id)) return notFound(id);
    return { status: 200, body: { success: true } };
  }

  private proxy(request: SeenRequest): BrokerReply {
    const body = request.body as {
      endpoint: string;
      method: string;
      body?: unknown;
      connected_account_id?: string;
      parameters?: Array<{ name: string; type: string; value: string }>;
    };
    const account = body.connected_account_id ? this.accounts.get(body.connected_account_id) : undefined;
    if (!account) return notFound(String(body.connected_account_id));
    if (account.status !== 'ACTIVE')
      return { status: 400, body: { error: { message: 'Connected account is not active', code: 1801, status: 400 } } };
    const query = Object.fromEntries((body.parameters ?? []).filter((p) => p.type === 'query').map((p) => [p.name, p.value]));
    const answer = providerEcho(account.toolkit, account.id, { method: body.method, path: body.endpoint, query, body: body.body });
    return { status: 200, body: { status: answer.status, data: answer.body, headers: answer.headers ?? {} } };
  }

  private consent(token: string, refuse: boolean): BrokerReply {
    const account = [...this.accounts.values()].find((a) => a.linkToken === token);
    if (!account || account.status !== 'INITIATED')
      return { status: 400, body: 'This link is no longer valid.', headers: { 'content-type': 'text/html' } };
    this.setStatus(account.id, refuse ? 'FAILED' : 'ACTIVE');
    if (!account.callbackUrl) return { status: 200, body: 'Done.', headers: { 'content-type': 'text/html' } };
    const back = new URL(account.callbackUrl);
    back.searchParams.set('status', refuse ? 'failed' : 'success');
    back.searchParams.set('connected_account_id', account.id);
    return { status: 302, headers: { location: back.href } };
  }

  /** The account as Composio's API returns it (the fields the SDK's schema requires). */
  private raw(a: ComposioAccount) {
    return {
      id: a.id,
      alias: null,
      word_id: null,
      user_id: a.userId,
      auth_config: { id: a.authConfigId, auth_scheme: 'OAUTH2', is_composio_managed: true, is_disabled: false },
      toolkit: { slug: a.toolkit },
      status: a.status,
      status_reason: null,
      is_disabled: false,
      data: {},
      params: {},
      created_at: a.createdAt,
      updated_at: a.updatedAt,
    };
  }
}

function notFound(id: string): BrokerReply {
  return { status: 404, body: { error: { message: `Connected account ${id} not found`, code: 1803, status: 404 } } };
}
