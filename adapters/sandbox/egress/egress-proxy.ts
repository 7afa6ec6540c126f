import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, createServer as createSocketServer, type Server as SocketServer, type Socket } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
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
  /**
   * Listen on this Unix socket instead of loopback TCP, admitting only connections that first send
   * `<token>\n`. How a sandbox in its own network namespace reaches the proxy (loopback is not shared
   * across namespaces, the filesystem is); the token keeps other local processes — another app's
   * sandbox among them — from borrowing this app's allow-list.
   */
  readonly socket?: { readonly path: string; readonly token: string };
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

  private constructor(
    private readonly server: Server,
    /** What accepts connections: the HTTP server itself, or the Unix socket gatekeeper in front of it. */
    private readonly listener: Server | SocketServer,
    readonly port: number,
  ) {}

  static async start(options: EgressProxyOptions): Promise<EgressProxy> {
    const guard = guardFor(options.resolve);
    const server = createServer();
    const listener = options.socket ? tokenGate(server, options.socket.token) : server;
    const proxy = await new Promise<EgressProxy>((done, fail) => {
      listener.once('error', fail);
      const listening = () => {
        const address = listener.address();
        done(new EgressProxy(server, listener, typeof address === 'object' && address ? address.port : 0));
      };
      if (options.socket) listener.listen(options.socket.path, listening);
      else listener.listen(0, '127.0.0.1', listening);
    });
    server.on('connection', (socket: Socket) => proxy.track(socket));
    server.on('connect', (request: IncomingMessage, client: Duplex, head: Buffer) => {
      void proxy.tunnel(request, client, head, options.rule(), guard);
    });
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      void proxy.forward(request, response, options.rule(), guard);
    });
    return proxy;
  }

  /** `127.0.0.1:<port>`, what HTTP(S)_PROXY and the preload point at. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.listener.close(() => resolve()));
    if (this.listener !== this.server) this.server.close();
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

const TOKEN_LINE_LIMIT = 256;
const TOKEN_WAIT_MS = 5000;

/**
 * A socket server that hands a connection to the HTTP proxy only after it sent the token line,
 * then answers `+` so the sender starts its traffic (nothing may follow the line before that, so
 * no byte is read ahead of the proxy). A wrong token, too long a line or silence is dropped unanswered.
 */
function tokenGate(proxy: Server, token: string): SocketServer {
  const expected = Buffer.from(token);
  return createSocketServer((socket) => {
    let received = Buffer.alloc(0);
    socket.setTimeout(TOKEN_WAIT_MS, () => socket.destroy());
    socket.on('error', () => socket.destroy());
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf(0x0a);
      if (end === -1) {
        if (received.length > TOKEN_LINE_LIMIT) socket.destroy();
        return;
      }
      socket.removeListener('data', onData);
      const given = received.subarray(0, end);
      const admitted = end === received.length - 1 && given.length === expected.length && timingSafeEqual(given, expected);
      if (!admitted) return void socket.destroy();
      socket.setTimeout(0);
      proxy.emit('connection', socket);
      socket.write('+');
    };
    socket.on('data', onData);
  });
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
