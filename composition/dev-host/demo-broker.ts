import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { defineTool } from '../../application/tools/define-tool.js';
import type { ToolDefinition } from '../../ports/tool-registry.js';

/** The demo toolkit: a calendar with a few of today's events. */
export const DEMO_TOOLKIT = 'demo-calendar';

type Status = 'initiated' | 'active' | 'failed' | 'expired';

interface DemoConnection {
  readonly id: string;
  readonly toolkit: string;
  readonly owner: string;
  readonly reference: string;
  readonly callbackUrl: string;
  readonly consent: string;
  readonly createdAt: string;
  status: Status;
  updatedAt: string;
}

const START = z.object({
  toolkit: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/),
  owner: z.string().min(1).max(512),
  reference: z.string().min(1),
  callback_url: z.url({ protocol: /^https?$/ }),
});
const PROXY = z.object({ method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']), path: z.string().startsWith('/') });

/**
 * The development host's connection broker: a small service in this process that speaks the Porter
 * Cloud connections API (docs/connections-cloud-api.md), so Porter's real `cloud` adapter talks to
 * it over HTTP exactly as it would to the hosted service, and the Connections page can be tried end
 * to end without an account anywhere. It knows one toolkit, `demo-calendar`: its consent page asks
 * the person to allow or deny, and its "provider API" answers `GET /events` with today's events.
 * Connections live in memory until the host stops. Never part of a production host.
 */
export class DemoBroker {
  readonly key = randomBytes(24).toString('base64url');
  private readonly connections = new Map<string, DemoConnection>();
  private readonly byReference = new Map<string, string>();
  private server: Server | null = null;
  private base = '';

  /** Starts listening on the loopback; the base URL (PORTER_CONNECTIONS_URL's value). */
  async start(): Promise<string> {
    const server = createServer((req, res) => void this.answer(req, res).catch(() => send(res, 500, failure('internal', 'failed'))));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    this.server = server;
    this.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.base;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.base);
    const consent = /^\/consent\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
    if (consent) return this.consentPage(req, res, consent[1]!);
    if (!this.authorized(req)) return send(res, 401, failure('unauthorized', 'missing or wrong API key'));
    const body = req.method === 'POST' ? await readJson(req) : null;
    if (req.method === 'POST' && url.pathname === '/v1/connections') return this.startConnection(req, res, body);
    if (req.method === 'GET' && url.pathname === '/v1/toolkits')
      return send(res, 200, { toolkits: [{ slug: DEMO_TOOLKIT, name: 'Demo calendar' }] });
    const one = /^\/v1\/connections\/([A-Za-z0-9_-]+)(\/proxy)?$/.exec(url.pathname);
    const found = one ? this.connections.get(one[1]!) : undefined;
    if (!one) return send(res, 404, failure('not-found', 'no such route'));
    if (!found) return send(res, 404, failure('not-found', 'no connection with that id'));
    if (one[2]) return req.method === 'POST' ? this.proxy(res, found, body) : send(res, 404, failure('not-found', 'no such route'));
    if (req.method === 'GET') return send(res, 200, cloudConnectionView(found));
    if (req.method === 'DELETE') {
      this.connections.delete(found.id);
      this.byReference.delete(found.reference);
      res.writeHead(204).end();
      return;
    }
    send(res, 404, failure('not-found', 'no such route'));
  }

  private startConnection(req: IncomingMessage, res: ServerResponse, body: unknown): void {
    const parsed = START.safeParse(body);
    if (!parsed.success) return send(res, 400, failure('validation', parsed.error.issues[0]?.message ?? 'bad body'));
    if (parsed.data.toolkit !== DEMO_TOOLKIT)
      return send(res, 400, failure('unknown-toolkit', `only ${DEMO_TOOLKIT} is set up on the demo broker`));
    const again = this.byReference.get(String(req.headers['idempotency-key'] ?? parsed.data.reference));
    if (again)
      return send(res, 200, {
        ...cloudConnectionView(this.connections.get(again)!),
        redirect_url: this.consentUrl(this.connections.get(again)!),
      });
    const now = new Date().toISOString();
    const made: DemoConnection = {
      id: `dc_${randomUUID()}`,
      toolkit: parsed.data.toolkit,
      owner: parsed.data.owner,
      reference: parsed.data.reference,
      callbackUrl: parsed.data.callback_url,
      consent: randomBytes(18).toString('base64url'),
      createdAt: now,
      updatedAt: now,
      status: 'initiated',
    };
    this.connections.set(made.id, made);
    this.byReference.set(made.reference, made.id);
    send(res, 201, {
      ...cloudConnectionView(made),
      redirect_url: this.consentUrl(made),
      expires_at: new Date(Date.now() + 30 * 60_000).toISOString(),
    });
  }

  private proxy(res: ServerResponse, connection: DemoConnection, body: unknown): void {
    if (connection.status !== 'active') return send(res, 409, failure('not-active', 'the connection is not active'));
    const parsed = PROXY.safeParse(body);
    if (!parsed.success) return send(res, 400, failure('validation', 'the proxy body does not match'));
    if (parsed.data.method === 'GET' && parsed.data.path === '/events')
      return send(res, 200, { status: 200, headers: { 'content-type': 'application/json' }, body: { events: TODAY } });
    send(res, 200, { status: 404, headers: { 'content-type': 'application/json' }, body: { error: 'not found' } });
  }

  /** The stand-in for a provider's consent screen: allow or deny, then back to the host. */
  private async consentPage(req: IncomingMessage, res: ServerResponse, token: string): Promise<void> {
    const connection = [...this.connections.values()].find((c) => constantEqual(c.consent, token));
    if (!connection || connection.status !== 'initiated') {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end(page('This sign-in link is no longer valid.', ''));
      return;
    }
    if (req.method === 'POST') {
      const form = new URLSearchParams(await readText(req));
      connection.status = form.get('answer') === 'allow' ? 'active' : 'failed';
      connection.updatedAt = new Date().toISOString();
      const back = new URL(connection.callbackUrl);
      back.searchParams.set('connection', connection.reference);
      back.searchParams.set('status', connection.status);
      res.writeHead(303, { location: back.href }).end();
      return;
    }
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(
        page(
          'Allow Porter to read your demo calendar?',
          `<form method="post"><button name="answer" value="allow" class="allow">Allow</button> <button name="answer" value="deny">Deny</button></form>`,
        ),
      );
  }

  private consentUrl(connection: DemoConnection): string {
    return `${this.base}/consent/${connection.consent}`;
  }

  private authorized(req: IncomingMessage): boolean {
    return constantEqual(String(req.headers.authorization ?? ''), `Bearer ${this.key}`);
  }
}

/** The demo calendar's tool: today's events, read through the person's connected account. */
export function demoCalendarTool(): ToolDefinition {
  return defineTool({
    name: 'calendar_events',
    description: "List today's events in the signed-in user's demo calendar (connect it on the Connections page first).",
    input: z.strictObject({}),
    risk: 'read',
    connection: DEMO_TOOLKIT,
    async execute(_input, context) {
      const answer = await context.connection!.request({ method: 'GET', path: '/events' });
      return answer.body;
    },
  });
}

const TODAY = [
  { at: '09:30', title: 'Stand-up' },
  { at: '12:30', title: 'Lunch with Sam' },
  { at: '16:00', title: 'Review the garden plans' },
];

/** A connection as the cloud broker's protocol answers it (the demo broker and the tests' cloud broker speak it). */
export function cloudConnectionView(
  c: Pick<DemoConnection, 'id' | 'toolkit' | 'owner' | 'reference' | 'status' | 'createdAt' | 'updatedAt'>,
) {
  return {
    id: c.id,
    toolkit: c.toolkit,
    owner: c.owner,
    reference: c.reference,
    status: c.status,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
  };
}

const failure = (code: string, message: string) => ({ error: { code, message } });

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function constantEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 64 * 1024) throw new Error('too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  try {
    return JSON.parse(await readText(req));
  } catch {
    return null;
  }
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><title>Demo broker</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1rem;border-radius:8px;border:1px solid #888;cursor:pointer}.allow{background:#4f46e5;color:#fff;border-color:#4f46e5}</style><main><p>Demo broker · development only</p><h1>${title}</h1>${body}</main></html>`;
}
