import { duplexPair, type Duplex } from 'node:stream';

/** What a real socket would have told the server about its peer. */
export interface ConnectionFacts {
  /** The client's address; absent when the host did not say. */
  readonly ip?: string | undefined;
  /** True when the request arrived over TLS (Koa reads `socket.encrypted`). */
  readonly secure: boolean;
}

export interface MemoryConnection {
  /** The end `http.request` writes the request to. */
  readonly client: Duplex;
  /** The end handed to the `http.Server`, shaped like the `net.Socket` the wire reads. */
  readonly server: Duplex;
}

/**
 * An in-memory connection with a socket's closing rules: when the client end goes away the server
 * end is destroyed (the server sees a reset: responses in flight close, turns detach); when the
 * server end goes away the client reads what was already sent, then end of stream.
 */
export function memoryConnection(facts: ConnectionFacts): MemoryConnection {
  const [client, server] = duplexPair();
  client.once('close', () => server.destroy());
  server.once('close', () => client.push(null));
  Object.assign(server, {
    remoteAddress: facts.ip || undefined,
    encrypted: facts.secure || undefined,
    // Socket options mean nothing in memory; the wire sets them on streamed turns.
    setNoDelay: () => server,
    setKeepAlive: () => server,
  });
  return { client, server };
}
