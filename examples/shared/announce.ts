import type { Server } from 'node:http';
import type { Porter } from 'porter-runtime';

/** Prints where the host listens once it does, and closes the server, then Porter, on SIGTERM or Ctrl-C. */
export function announce(name: string, server: Server, porter: Porter): void {
  server.once('listening', () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    console.log(`${name} host on http://127.0.0.1:${port} (Porter at ${porter.mount})`);
  });
  const stop = () => {
    server.closeAllConnections();
    server.close(() => void porter.close().then(() => process.exit(0)));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
