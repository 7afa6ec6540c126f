import type { RequestListener, Server } from 'node:http';
import { inOrder } from '../../adapters/http/node-chain.js';
import { createPorter, type Porter } from '../create-porter.js';
import type { PorterOptions } from '../config/config-schema.js';
import { listen, stopServer, urlOf, type ListenOptions } from './listen.js';
import { serveChrome } from '../../adapters/chrome/serve-chrome.js';

export interface PorterServerOptions extends ListenOptions {
  /** Serve the shipped chrome at `/` (its assets under `/assets/`). */
  readonly chrome?: boolean;
}

/** Porter on its own Node HTTP server: what `porter serve --config` runs. */
export interface PorterServer {
  readonly url: string;
  readonly porter: Porter;
  readonly server: Server;
  /** Stops taking connections, gives requests in flight `graceMs` (default 0), then closes Porter. */
  close(graceMs?: number): Promise<void>;
}

/**
 * Builds Porter from exactly `options` (and the environment) and serves it: the wire at its mount,
 * the discovery documents at the origin root, the chrome at `/` when asked, and Porter's 404
 * envelope for everything else. A server that cannot listen closes Porter before it rejects.
 */
export async function startPorterServer(options: PorterOptions, env: NodeJS.ProcessEnv, serve: PorterServerOptions): Promise<PorterServer> {
  const porter = await createPorter(options, env);
  let server: Server;
  try {
    server = await listen(serve.chrome ? await withChrome(porter) : porter.listener, serve);
  } catch (error) {
    await porter.close();
    throw error;
  }
  return {
    url: urlOf(server, serve.host),
    porter,
    server,
    async close(graceMs = 0) {
      await stopServer(server, graceMs);
      await porter.close();
    },
  };
}

/** The wire first, then the chrome's page and assets; the rest gets the wire's 404 envelope. */
async function withChrome(porter: Porter): Promise<RequestListener> {
  const chrome = await serveChrome({ wire: porter.mount });
  return inOrder([porter.handle, chrome.handle], porter.listener);
}
