import { randomUUID } from 'node:crypto';
import { providerEcho, StandInBroker, type BrokerReply, type SeenRequest } from './broker-http.js';

interface NangoSession {
  readonly token: string;
  readonly tags: Record<string, string>;
  readonly allowedIntegrations: string[];
  readonly expiresAt: string;
}

interface NangoConnection {
  readonly id: number;
  readonly connection_id: string;
  readonly provider_config_key: string;
  readonly provider: string;
  readonly created: string;
  tags: Record<string, string>;
  errors: Array<{ type: string; log_id: string }>;
}

/**
 * A local server speaking the part of Nango's API that @nangohq/node calls for Porter:
 * `POST /connect/sessions`, `GET /connections` (integration and tag filters), `DELETE
 * /connections/:id?provider_config_key=`, and `/proxy/*` (Connection-Id and Provider-Config-Key
 * headers, `Nango-Proxy-*` forwarded headers). Bearer-key authentication as Nango does.
 * The connect link opens a stand-in for Nango's Connect UI: visiting it completes the consent
 * (copying the session's tags onto the new connection, as Nango does); `?refuse=1` abandons it.
 */
export class NangoBrokerServer extends StandInBroker {
  readonly sessions = new Map<string, NangoSession>();
  readonly connections = new Map<string, NangoConnection>();
  private nextId = 1;

  constructor(
    readonly secretKey: string,
    readonly integrations: string[] = ['github', 'slack'],
  ) {
    super();
    const proxy = (request: SeenRequest, [path]: string[]) => this.proxy(request, path!);
    this.http
      .guarded(
        (request) => request.headers.authorization === `Bearer ${this.secretKey}`,
        { status: 401, body: { error: { code: 'unknown_account', message: 'Authentication failed' } } },
        [
          ['POST', /^\/connect\/sessions$/, (request) => this.createSession(request)],
          ['GET', /^\/connections$/, (request) => this.list(request)],
          [
            'GET',
            /^\/integrations$/,
            () => ({
              status: 200,
              body: { data: this.integrations.map((key) => ({ unique_key: key, provider: key, display_name: displayName(key) })) },
            }),
          ],
          ['DELETE', /^\/connections\/([^/]+)$/, (request, [id]) => this.remove(id!, request.query.get('provider_config_key') ?? '')],
          ...['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((method) => [method, /^\/proxy(\/.*)$/, proxy] as const),
        ],
      )
      .on('GET', /^\/connect$/, (request) => this.consent(request));
  }

  /** What a person finishing the Connect UI does; returns the new Nango connection id. */
  complete(sessionToken: string): string {
    const session = this.sessions.get(sessionToken);
    if (!session) throw new Error('no such session');
    const integration = session.allowedIntegrations[0]!;
    const connectionId = randomUUID();
    this.connections.set(connectionId, {
      id: this.nextId++,
      connection_id: connectionId,
      provider_config_key: integration,
      provider: integration,
      created: new Date().toISOString(),
      tags: { ...session.tags },
      errors: [],
    });
    return connectionId;
  }

  /** The provider refused to refresh the account's token: Nango records an auth error. */
  breakAuth(connectionId: string): void {
    this.connections.get(connectionId)!.errors.push({ type: 'auth', log_id: 'log_1' });
  }

  private createSession(request: SeenRequest): BrokerReply {
    const body = request.body as { tags?: Record<string, string>; allowed_integrations?: string[]; end_user?: { id: string } };
    if (!body || typeof body !== 'object' || (!body.tags && !body.end_user)) {
      return {
        status: 400,
        body: { error: { code: 'invalid_body', errors: [{ code: 'custom', message: 'tags or end_user is required', path: ['tags'] }] } },
      };
    }
    const unknown = (body.allowed_integrations ?? []).filter((i) => !this.integrations.includes(i));
    if (unknown.length)
      return { status: 400, body: { error: { code: 'invalid_body', message: `unknown integration ${unknown.join(',')}` } } };
    const token = `nango_connect_session_${randomUUID().replaceAll('-', '')}`;
    // Nango lowercases tag keys.
    const tags = Object.fromEntries(Object.entries(body.tags ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    const expiresAt = new Date(Date.now() + 30 * 60_000).toISOString();
    this.sessions.set(token, { token, tags, allowedIntegrations: body.allowed_integrations ?? this.integrations, expiresAt });
    return {
      status: 201,
      body: { data: { token, connect_link: `${this.http.url}/connect?session_token=${token}`, expires_at: expiresAt } },
    };
  }

  private list(request: SeenRequest): BrokerReply {
    const integrations = request.query.get('integrationId')?.split(',');
    const endUser = request.query.get('endUserId');
    const tagFilters = [...request.query.entries()].flatMap(([key, value]) => {
      const m = /^tags\[(.+)\]$/.exec(key);
      return m ? [[m[1]!, value] as const] : [];
    });
    const connections = [...this.connections.values()].filter(
      (c) =>
        (!integrations || integrations.includes(c.provider_config_key)) &&
        (!endUser || c.tags.end_user_id === endUser) &&
        tagFilters.every(([key, value]) => c.tags[key] === value),
    );
    return {
      status: 200,
      body: {
        connections: connections.map((c) => ({
          id: c.id,
          connection_id: c.connection_id,
          provider_config_key: c.provider_config_key,
          provider: c.provider,
          created: c.created,
          metadata: null,
          errors: c.errors,
          end_user: null,
          tags: c.tags,
        })),
      },
    };
  }

  private remove(connectionId: string, providerConfigKey: string): BrokerReply {
    const found = this.connections.get(connectionId);
    if (!found || found.provider_config_key !== providerConfigKey)
      return { status: 404, body: { error: { code: 'unknown_connection', message: 'Connection not found' } } };
    this.connections.delete(connectionId);
    return { status: 200, body: { success: true } };
  }

  private consent(request: SeenRequest): BrokerReply {
    const token = request.query.get('session_token') ?? '';
    const session = this.sessions.get(token);
    if (!session || session.expiresAt < new Date().toISOString())
      return { status: 400, body: 'This link has expired.', headers: { 'content-type': 'text/html' } };
    if (request.query.get('refuse') !== '1') this.complete(token);
    return { status: 200, body: '<!doctype html><p>Done. You can close this window.</p>', headers: { 'content-type': 'text/html' } };
  }

  private proxy(request: SeenRequest, path: string): BrokerReply {
    const connectionId = String(request.headers['connection-id'] ?? '');
    const key = String(request.headers['provider-config-key'] ?? '');
    const found = this.connections.get(connectionId);
    if (!found || found.provider_config_key !== key)
      return { status: 404, body: { error: { code: 'unknown_connection', message: 'Connection not found' } } };
    const forwarded = Object.fromEntries(
      Object.entries(request.headers)
        .filter(([h]) => h.startsWith('nango-proxy-'))
        .map(([h, v]) => [h.slice('nango-proxy-'.length), String(v)]),
    );
    const reply = providerEcho(key, connectionId, {
      method: request.method,
      path,
      query: Object.fromEntries(request.query),
      body: request.body === '' ? null : request.body,
    });
    return typeof reply.body === 'object' && reply.status === 200
      ? { ...reply, body: { ...(reply.body as object), headers: forwarded } }
      : reply;
  }
}

/**
 * A NangoBrokerServer for a mocha suite: the function it answers starts one (call it from the
 * suite's before hook) and gives the `connections` option that points Porter at it; it is closed
 * after the suite.
 */
export function suiteNangoBroker(secretKey: string): () => Promise<{ nango: { secretKey: string; host: string } }> {
  let server: NangoBrokerServer | undefined;
  after(async () => {
    await server?.close();
  });
  return async () => {
    server = new NangoBrokerServer(secretKey);
    return { nango: { secretKey, host: await server.start() } };
  };
}

/** How Nango's catalogue names a provider (`github` → `GitHub`). */
function displayName(key: string): string {
  return key === 'github' ? 'GitHub' : key.charAt(0).toUpperCase() + key.slice(1);
}
