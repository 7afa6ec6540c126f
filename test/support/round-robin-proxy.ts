import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer, listenOnLoopback } from './http-server.js';

export interface ProxyOptions {
  /** Cuts a client connection that carried no bytes either way for this long, as load balancers do (default: never). */
  readonly idleTimeoutMs?: number;
}

export interface RoundRobinProxy {
  readonly url: string;
  /** For each request, which upstream (by index) answered it, in order. */
  readonly served: Array<{
    readonly method: string;
    readonly path: string;
    readonly upstream: number;
    /** The `Mcp-Session-Id` the client sent and the one the answer carried, if any. */
    readonly session: { readonly sent: string | null; readonly issued: string | null };
  }>;
  /** How many client connections the idle timeout cut. */
  readonly cut: number;
  close(): Promise<void>;
}

/**
 * A load balancer for tests: each request goes to the next upstream in turn (whatever the
 * connection it came on), bodies and answers streamed through. An upstream that refuses the
 * connection (a dead instance) is skipped, as a balancer's health check would, and the request is
 * sent to the next one.
 */
export async function roundRobinProxy(upstreams: ReadonlyArray<string>, options: ProxyOptions = {}): Promise<RoundRobinProxy> {
  let next = 0;
  let cut = 0;
  const served: RoundRobinProxy['served'] = [];
  const down = new Set<number>();
  const agent = new Agent({ keepAlive: false });

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, tries: number) => {
    const index = next++ % upstreams.length;
    if (down.has(index) && tries < upstreams.length) return forward(req, res, body, tries + 1);
    const target = new URL(upstreams[index]!);
    // The body was read whole: it goes on with its length, never chunked.
    const { 'transfer-encoding': _chunked, ...headers } = req.headers;
    if (body.length > 0 || headers['content-length'] !== undefined) headers['content-length'] = String(body.length);
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...headers, connection: 'close' }, agent },
      (answer) => {
        const session = { sent: headerOf(req.headers['mcp-session-id']), issued: headerOf(answer.headers['mcp-session-id']) };
        served.push({ method: req.method ?? 'GET', path: req.url ?? '/', upstream: index, session });
        // One request per client connection: an idle cut never meets a connection a client would reuse.
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, connection: 'close' });
        // An event stream's head goes on at once, as a balancer passes it, not with its first event.
        res.flushHeaders();
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (res.headersSent) return res.destroy();
      if ((error.code === 'ECONNREFUSED' || error.code === 'ECONNRESET') && tries < upstreams.length) {
        down.add(index);
        return forward(req, res, body, tries + 1);
      }
      res.writeHead(502, { 'content-type': 'text/plain' }).end(`bad gateway: ${error.message}`);
    });
    res.on('close', () => upstream.destroy());
    if (body.length > 0) upstream.end(body);
    else upstream.end();
  };

  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => forward(req, res, Buffer.concat(parts), 1));
  });
  if (options.idleTimeoutMs) {
    server.on('connection', (socket) => {
      socket.setTimeout(options.idleTimeoutMs!, () => {
        cut += 1;
        socket.destroy();
      });
    });
  }
  return {
    url: await listenOnLoopback(server),
    served,
    get cut() {
      return cut;
    },
    async close() {
      agent.destroy();
      await closeServer(server);
    },
  };
}

function headerOf(value: string | string[] | undefined): string | null {
  return Array.isArray(value) ? value.join(', ') : (value ?? null);
}
