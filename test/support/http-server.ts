import { randomInt } from 'node:crypto';
import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';

export interface RunningServer {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

/** Serves a Node request listener on a free loopback port. */
export async function serve(listener: RequestListener): Promise<RunningServer> {
  const server = createServer(listener);
  return { url: await listenOnLoopback(server), server, close: () => closeServer(server) };
}

/** Starts `server` listening on loopback, on `port` or else a free one, and answers its origin. */
export async function listenOnLoopback(server: Server, port = 0): Promise<string> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

/** Closes `server` now: open connections (keep-alive ones too) are dropped rather than waited for. */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Cookies a test client keeps between requests, as a browser would for one origin. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  absorb(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a) || /^\s*max-age=0\s*$/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  has(name: string): boolean {
    return this.cookies.has(name);
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  set(name: string, value: string): void {
    this.cookies.set(name, value);
  }
}

/**
 * A port nothing listens on right now (for a server that must know its own URL up front). It is
 * drawn below the kernel's ephemeral range (32768 and up), where `listen(0)` and outgoing
 * connections of tests running beside this one take theirs, so none of them can take it before
 * the caller listens on it; it is free on every address (`::` takes IPv4 too), where the caller's
 * server may listen.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + randomInt(12_000);
    if (await isFree(port)) return port;
  }
}

function isFree(port: number, host = '::'): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', (error: NodeJS.ErrnoException) =>
      // A machine without IPv6 cannot listen on `::`: its IPv4 wildcard is every address there.
      resolve(error.code !== 'EADDRINUSE' && host === '::' ? isFree(port, '0.0.0.0') : false),
    );
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

/** Answers `status` with `body` as JSON. */
export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** Answers `status` with no body. */
export function sendEmpty(response: ServerResponse, status: number): void {
  response.writeHead(status);
  response.end();
}
