import { randomBytes, timingSafeEqual } from 'node:crypto';
import { providerEcho, restamp, StandInBroker, type BrokerReply, type SeenRequest } from './broker-http.js';
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
export class CloudBrokerServer extends StandInBroker {
  readonly connections = new Map<string, CloudConnection>();
  /** Starts seen per idempotency key, so a retry returns the same connection. */
  private readonly byKey = new Map<string, string>();

  constructor(
    readonly key: string,
    readonly toolkits: string[] = ['github', 'slack'],
  ) {
    super();
    this.http
      .guarded((request) => this.authorized(request), fail(401, 'unauthorized', 'missing or wrong API key'), [
        ['GET', /^\/v1\/toolkits$/, () => ({ status: 200, body: { toolkits: this.toolkits.map((slug) => ({ slug })) } })],
        ['POST', /^\/v1\/connections$/, (request) => this.startConnection(request)],
        ['GET', /^\/v1\/connections\/([^/]+)$/, (_r, [id]) => this.read(id!)],
        ['DELETE', /^\/v1\/connections\/([^/]+)$/, (_r, [id]) => this.remove(id!)],
        ['POST', /^\/v1\/connections\/([^/]+)\/proxy$/, (request, [id]) => this.proxy(id!, request)],
      ])
      .on('GET', /^\/consent\/([^/]+)$/, (request, [token]) => this.consent(token!, request.query.get('refuse') === '1'));
  }

  setStatus(id: string, status: CloudStatus): void {
    restamp(this.connections.get(id)!, status);
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
