import { createServer, type Server } from 'node:net';
import { EgressProxy, type EgressProxyOptions } from '../../adapters/sandbox/egress/egress-proxy.js';

/**
 * An egress proxy reachable on loopback TCP, as tests and the e2b stand-in need one: each
 * connection is handed to the proxy the way a sandbox's gate hands over an app's connection.
 */
export interface ListeningProxy {
  readonly proxy: EgressProxy;
  readonly port: number;
  /** `127.0.0.1:<port>`, what HTTP(S)_PROXY and the preload point at. */
  readonly address: string;
  close(): Promise<void>;
}

export async function listeningProxy(options: EgressProxyOptions): Promise<ListeningProxy> {
  const proxy = EgressProxy.create(options);
  const server: Server = createServer({ pauseOnConnect: true }, (socket) => proxy.accept(socket));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const port = (server.address() as { port: number }).port;
  return {
    proxy,
    port,
    address: `127.0.0.1:${port}`,
    async close() {
      await proxy.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
