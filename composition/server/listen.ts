import { createServer, type RequestListener, type Server } from 'node:http';

export interface ListenOptions {
  /** 0 picks a free port. */
  readonly port: number;
  /** The interface to bind: 127.0.0.1 (this machine only) or 0.0.0.0 / :: (every interface). */
  readonly host: string;
}

/**
 * How long an idle keep-alive connection stays open. Longer than the idle timeouts of common load
 * balancers (60 s): the balancer then always closes first, so it never reuses a socket Node has just
 * closed (Node's default of 5 s turned such reuse into connection resets, shown as 502s for POSTs).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** Node requires the header timeout to exceed the keep-alive timeout, or an idle socket's next request can be cut. */
export const HEADERS_TIMEOUT_MS = 66_000;

/**
 * A Node HTTP server for `handler`, listening. A port already in use (or a host that is not an
 * address of this machine) rejects, with the listen error's code, instead of crashing the process.
 */
export function listen(handler: RequestListener, options: ListenOptions): Promise<Server> {
  const server = createServer({ keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS, headersTimeout: HEADERS_TIMEOUT_MS }, handler);
  return new Promise<Server>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** The URL a person can open for a listening server (a wildcard bind is reached on loopback). */
export function urlOf(server: Server, host: string): string {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const shown = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}

/**
 * Stops a server: it takes no new connections at once, idle keep-alive connections are closed,
 * requests in flight get `graceMs` to finish, and whatever is still open after that (a long SSE
 * stream) is cut. Resolves when every connection is gone.
 */
export async function stopServer(server: Server, graceMs: number): Promise<void> {
  if (!server.listening) return;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  if (graceMs <= 0) {
    server.closeAllConnections();
    return closed;
  }
  // A keep-alive connection whose request finishes during the grace becomes idle: close it then.
  const idle = setInterval(() => server.closeIdleConnections(), 100);
  const cut = setTimeout(() => server.closeAllConnections(), graceMs);
  server.closeIdleConnections();
  try {
    await closed;
  } finally {
    clearInterval(idle);
    clearTimeout(cut);
  }
}

/** A browser that closes a stream mid-turn is ordinary; anything else is worth a line. */
export function logUnlessHangUp(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET' && error.code !== 'ERR_STREAM_PREMATURE_CLOSE') console.error(error);
}
