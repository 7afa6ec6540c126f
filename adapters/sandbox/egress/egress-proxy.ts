import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { EgressRefused, type GuardedAddressClass } from '../../../domain/guard/egress.js';
import { EgressGuard, type AdmittedDestination } from '../../shared/egress/egress-guard.js';
import type { EgressRule } from './egress-rules.js';

/**
 * Turns an allowed host name into the address (or addresses) to dial; the system resolver when
 * absent. Its answers pass the egress guard like any other, so a name resolving to loopback or a
 * private network is refused; a resolver that maps names into such a range on purpose (the tests
 * map names to the loopback servers they start) names those classes in `allows`.
 */
export interface EgressResolver {
  (host: string): Promise<string | ReadonlyArray<string>>;
  readonly allows?: ReadonlyArray<GuardedAddressClass>;
}

export interface EgressProxyOptions {
  /** Consulted per connection, so a policy change takes effect at once. */
  readonly rule: () => EgressRule;
  readonly resolve?: EgressResolver;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * A filtering forward proxy on loopback: HTTPS goes through CONNECT tunnels, plain HTTP through
 * absolute-form requests. Every destination is checked against the sandbox's egress rule, then
 * resolved once by the egress guard, which refuses non-public addresses; the connection goes to
 * the address it checked. Refusals answer 403 and name the host, so the app's own error says why.
 */
export class EgressProxy {
  private readonly sockets = new Set<Duplex>();

  private constructor(private readonly server: Server) {}

  /**
   * A proxy that listens nowhere: connections are handed to it (`accept`). How a sandbox reaches it:
   * the gate inside hands over each connection the app opened as a descriptor, so nothing outside
   * the sandbox (and no other app) can borrow this app's allow-list.
   */
  static create(options: EgressProxyOptions): EgressProxy {
    const guard = guardFor(options.resolve);
    const server = createServer();
    const proxy = new EgressProxy(server);
    server.on('connect', (request: IncomingMessage, client: Duplex, head: Buffer) => {
      void proxy.tunnel(request, client, head, options.rule(), guard);
    });
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      void proxy.forward(request, response, options.rule(), guard);
    });
    return proxy;
  }

  /** Serves one connection the app opened. */
  accept(socket: Socket): void {
    this.track(socket);
    socket.on('error', () => socket.destroy());
    this.server.emit('connection', socket);
    socket.resume();
  }

  /** Ends every connection it serves. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.server.close();
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  private async tunnel(request: IncomingMessage, client: Duplex, head: Buffer, rule: EgressRule, guard: EgressGuard): Promise<void> {
    client.on('error', () => client.destroy());
    const target = parseAuthority(request.url ?? '');
    if (!target) return refuseSocket(client, 400, 'CONNECT needs host:port');
    if (!rule(target.host)) return refuseSocket(client, 403, `egress to ${target.host} is not allowed by the app's egress policy`);
    const destination = await admitted(guard, target.host);
    if (!destination.ok) return refuseSocket(client, destination.status, destination.message);
    const upstream = connect({ host: destination.admitted.host, port: target.port, lookup: destination.admitted.lookup });
    this.track(upstream);
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.once('error', () => {
      if (upstream.connecting) refuseSocket(client, 502, `could not reach ${target.host}:${target.port}`);
      else client.destroy();
    });
    client.once('close', () => upstream.destroy());
  }

  private async forward(request: IncomingMessage, response: ServerResponse, rule: EgressRule, guard: EgressGuard): Promise<void> {
    let url: URL;
    try {
      url = new URL(request.url ?? '');
      if (url.protocol !== 'http:') throw new Error('not http');
    } catch {
      return refuseResponse(response, 400, 'only absolute http:// requests and CONNECT are proxied');
    }
    if (!rule(url.hostname)) return refuseResponse(response, 403, `egress to ${url.hostname} is not allowed by the app's egress policy`);
    const destination = await admitted(guard, url.hostname);
    if (!destination.ok) return refuseResponse(response, destination.status, destination.message);
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    }
    headers.host = url.host;
    const { host, lookup } = destination.admitted;
    // A connection of its own (no pooled socket), dialled through the lookup that answers with the checked addresses.
    const upstream = httpRequest(
      {
        host,
        port: url.port || 80,
        lookup,
        agent: false,
        method: request.method,
        path: `${url.pathname}${url.search}`,
        headers,
        setHost: false,
      },
      (answer) => {
        const forwarded: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value !== undefined && !HOP_BY_HOP.has(name)) forwarded[name] = value;
        }
        response.writeHead(answer.statusCode ?? 502, forwarded);
        answer.pipe(response);
      },
    );
    upstream.once('error', () => {
      if (!response.headersSent) refuseResponse(response, 502, `could not reach ${url.host}`);
      else response.destroy();
    });
    request.pipe(upstream);
  }
}

/** The guard for a proxy: over the injected resolver (with the classes it allows), or the system's. */
function guardFor(resolve: EgressResolver | undefined): EgressGuard {
  if (!resolve) return new EgressGuard();
  const lookup = async (name: string) => {
    const answer = await resolve(name);
    return typeof answer === 'string' ? [answer] : answer;
  };
  return new EgressGuard({ lookup, allow: resolve.allows ?? [] });
}

type Admission =
  | { readonly ok: true; readonly admitted: AdmittedDestination }
  | { readonly ok: false; readonly status: 403 | 502; readonly message: string };

async function admitted(guard: EgressGuard, host: string): Promise<Admission> {
  try {
    return { ok: true, admitted: await guard.admit(host) };
  } catch (error) {
    if (error instanceof EgressRefused) return { ok: false, status: 403, message: error.message };
    return { ok: false, status: 502, message: `could not resolve ${host}` };
  }
}

function parseAuthority(authority: string): { host: string; port: number } | null {
  const match = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(authority);
  if (!match) return null;
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return null;
  return { host: match[1]!.replace(/^\[(.*)\]$/, '$1'), port };
}

function refuseSocket(client: Duplex, status: number, message: string): void {
  const reason = status === 403 ? 'Forbidden' : status === 400 ? 'Bad Request' : 'Bad Gateway';
  client.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(message)}\r\nconnection: close\r\n\r\n${message}`,
  );
}

function refuseResponse(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'text/plain', 'x-porter-egress': 'refused' });
  response.end(message);
}
