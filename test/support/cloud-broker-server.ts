import { randomBytes, timingSafeEqual } from 'node:crypto';
import { BrokerHttp, providerEcho, type BrokerReply, type SeenRequest } from './broker-http.js';
import { cloudConnectionView } from '../../composition/dev-host/demo-broker.js';

type CloudStatus = 'initiated' | 'active' | 'failed' | 'expired';

interface CloudConnection {
  readonly id: string;
  readonly toolkit: string;
  readonly owner: string;
  readonly reference: string;
  readonly callbackUrl: string;
  readonly consentToken: string;
  readonly createdAt: string;
  readonly expiresAt: string;
  status: CloudStatus;
  updatedAt: string;
}

const fail = (status: number, code: string, message: string): BrokerReply => ({ status, body: { error: { code, message } } });

/**
 * A local implementation of the Porter Cloud connections API exactly as docs/connections-cloud-api.md
 * writes it down: bearer key, idempotent starts, reads, removal and the proxy; the redirect URL
 * opens a consent stand-in that activates the connection (or fails it with `?refuse=1`) and
 * redirects to the callback with `connection` and `status`.
 */
export class CloudBrokerServer {
  readonly http = new BrokerHttp();
  readonly connections = new Map<string, CloudConnection>();
  /** Starts seen per idempotency key, so a retry returns the same connection. */
  private readonly byKey = new Map<string, string>();

  constructor(
    readonly key: string,
    readonly toolkits: string[] = ['github', 'slack'],
  ) {
    const api = (handler: (request: SeenRequest, params: string[]) => BrokerReply) => (request: SeenRequest, params: string[]) =>
      this.authorized(request) ? handler(request, params) : fail(401, 'unauthorized', 'missing or wrong API key');
    this.http
      .on(
        'POST',
        /^\/v1\/connections$/,
        api((request) => this.startConnection(request)),
      )
      .on(
        'GET',
        /^\/v1\/connections\/([^/]+)$/,
        api((_r, [id]) => this.read(id!)),
      )
      .on(
        'DELETE',
        /^\/v1\/connections\/([^/]+)$/,
        api((_r, [id]) => this.remove(id!)),
      )
      .on(
        'POST',
        /^\/v1\/connections\/([^/]+)\/proxy$/,
        api((request, [id]) => this.proxy(id!, request)),
      )
      .on('GET', /^\/consent\/([^/]+)$/, (request, [token]) => this.consent(token!, request.query.get('refuse') === '1'));
  }

  start(): Promise<string> {
    return this.http.start();
  }

  close(): Promise<void> {
    return this.http.close();
  }

  setStatus(id: string, status: CloudStatus): void {
    const found = this.connections.get(id)!;
    found.status = status;
    found.updatedAt = new Date().toISOString();
  }

  private authorized(request: SeenRequest): boolean {
    const given = Buffer.from(String(request.headers.authorization ?? ''));
    const expected = Buffer.from(`Bearer ${this.key}`);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private startConnection(request: SeenRequest): BrokerReply {
    const body = request.body as Record<string, unknown> | null;
    if (
      !body ||
      typeof body.toolkit !== 'string' ||
      typeof body.owner !== 'string' ||
      typeof body.reference !== 'string' ||
      typeof body.callback_url !== 'string'
    ) {
      return fail(400, 'validation', 'toolkit, owner, reference and callback_url are required');
    }
    if (!this.toolkits.includes(body.toolkit)) return fail(400, 'unknown-toolkit', `toolkit ${body.toolkit} is not set up`);
    const key = String(request.headers['idempotency-key'] ?? '');
    const earlier = key ? this.byKey.get(key) : undefined;
    if (earlier) return { status: 200, body: this.started(this.connections.get(earlier)!) };
    const now = new Date();
    const made: CloudConnection = {
      id: `cc_${randomBytes(8).toString('hex')}`,
      toolkit: body.toolkit,
      owner: body.owner,
      reference: body.reference,
      callbackUrl: body.callback_url,
      consentToken: randomBytes(16).toString('hex'),
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + 15 * 60_000).toISOString(),
      status: 'initiated',
    };
    this.connections.set(made.id, made);
    if (key) this.byKey.set(key, made.id);
    return { status: 201, body: this.started(made) };
  }

  private read(id: string): BrokerReply {
    const found = this.connections.get(id);
    return found ? { status: 200, body: cloudConnectionView(found) } : fail(404, 'not-found', 'no such connection');
  }

  private remove(id: string): BrokerReply {
    return this.connections.delete(id) ? { status: 204 } : fail(404, 'not-found', 'no such connection');
  }

  private proxy(id: string, request: SeenRequest): BrokerReply {
    const found = this.connections.get(id);
    if (!found) return fail(404, 'not-found', 'no such connection');
    if (found.status !== 'active') return fail(409, 'not-active', 'the connection is not active');
    const call = request.body as { method: string; path: string; query?: Record<string, string>; body?: unknown };
    if (typeof call?.path !== 'string' || !call.path.startsWith('/')) return fail(400, 'validation', 'path must start with /');
    const answer = providerEcho(found.toolkit, found.id, {
      method: call.method,
      path: call.path,
      query: call.query ?? {},
      body: call.body,
    });
    return { status: 200, body: { status: answer.status, headers: answer.headers ?? {}, body: answer.body } };
  }

  private consent(token: string, refuse: boolean): BrokerReply {
    const found = [...this.connections.values()].find((c) => c.consentToken === token);
    if (!found || found.status !== 'initiated')
      return { status: 400, body: 'This consent page is no longer valid.', headers: { 'content-type': 'text/html' } };
    this.setStatus(found.id, refuse ? 'failed' : 'active');
    const back = new URL(found.callbackUrl);
    back.searchParams.set('connection', found.reference);
    back.searchParams.set('status', refuse ? 'failed' : 'active');
    return { status: 302, headers: { location: back.href } };
  }

  private started(c: CloudConnection) {
    return { ...cloudConnectionView(c), redirect_url: `${this.http.url}/consent/${c.consentToken}`, expires_at: c.expiresAt };
  }
}
