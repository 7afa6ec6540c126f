import type { IncomingMessage, ServerResponse } from 'node:http';
import { serve, type RunningServer } from './http-server.js';

/** One request as a local broker server saw it, for assertions about what an adapter sent. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  readonly body: unknown;
}

export interface BrokerReply {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

type Handler = (request: SeenRequest, params: string[]) => BrokerReply | Promise<BrokerReply>;

/** One line of a broker's route table: method, path pattern (groups become params), handler. */
export type BrokerRoute = readonly [method: string, pattern: RegExp, handler: Handler];

/**
 * A tiny router for the local servers that speak a broker's protocol in tests: exact methods,
 * path patterns, JSON in and out, and a log of every request.
 */
export class BrokerHttp {
  readonly seen: SeenRequest[] = [];
  private readonly routes: Array<{ method: string; pattern: RegExp; handler: Handler }> = [];
  private server: RunningServer | null = null;
  /** When set, every request fails this way (a broker that is down or broken). */
  outage: BrokerReply | null = null;

  on(method: string, pattern: RegExp, handler: Handler): this {
    this.routes.push({ method, pattern, handler });
    return this;
  }

  /** Routes behind the broker's credential check: a request `authorized` refuses gets `refusal`. */
  guarded(authorized: (request: SeenRequest) => boolean, refusal: BrokerReply, routes: BrokerRoute[]): this {
    for (const [method, pattern, handler] of routes)
      this.on(method, pattern, (request, params) => (authorized(request) ? handler(request, params) : refusal));
    return this;
  }

  async start(): Promise<string> {
    this.server = await serve((req, res) => void this.handle(req, res));
    return this.server.url;
  }

  get url(): string {
    if (!this.server) throw new Error('not started');
    return this.server.url;
  }

  async close(): Promise<void> {
    await this.server?.close();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://local');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = text;
    if ((req.headers['content-type'] ?? '').includes('json') && text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    const request: SeenRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body };
    this.seen.push(request);
    let reply: BrokerReply = { status: 404, body: { error: { code: 'not_found', message: `no route ${request.method} ${request.path}` } } };
    try {
      if (this.outage) {
        reply = this.outage;
      } else {
        for (const route of this.routes) {
          const match = route.method === request.method ? route.pattern.exec(request.path) : null;
          if (match) {
            reply = await route.handler(request, match.slice(1).map(decodeURIComponent));
            break;
          }
        }
      }
    } catch (error) {
      reply = { status: 500, body: { error: { code: 'server_error', message: String(error) } } };
    }
    const headers: Record<string, string> = { ...reply.headers };
    if (reply.body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    res.writeHead(reply.status, headers);
    res.end(reply.body === undefined ? undefined : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
  }
}

/** The skeleton every broker stand-in shares: its router, started and closed with it. */
export abstract class StandInBroker {
  readonly http = new BrokerHttp();

  start(): Promise<string> {
    return this.http.start();
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

/** Moves a stand-in's record to `status`, stamping the change as the broker does. */
export function restamp<Status>(record: { status: Status; updatedAt: string }, status: Status): void {
  record.status = status;
  record.updatedAt = new Date().toISOString();
}

/** What a provider behind a broker answers to a proxied call in these tests: an echo of it. */
export function providerEcho(
  toolkit: string,
  account: string,
  call: { method: string; path: string; query: Record<string, string>; body: unknown },
): BrokerReply {
  if (call.path === '/missing')
    return { status: 404, body: { message: 'Not Found' }, headers: { 'content-type': 'application/json', 'x-provider': toolkit } };
  return {
    status: 200,
    body: { provider: toolkit, account, method: call.method, path: call.path, query: call.query, body: call.body ?? null },
    headers: { 'content-type': 'application/json', 'x-provider': toolkit, 'set-cookie': 'provider_session=secret' },
  };
}
