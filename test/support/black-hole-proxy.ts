import { connect, createServer, type Socket } from 'node:net';

export interface BlackHoleProxy {
  /** The URL to hand out instead of the upstream's: the upstream's, with host and port this proxy's. */
  readonly url: string;
  /** Stops carrying bytes either way; connections stay open and new ones are accepted but left unanswered. */
  swallow(): void;
  /**
   * Carries bytes again, the held ones first, as a suspended server resumed or a network healed
   * would; connections `forget()` left silent are reset, as the server that forgot them answers.
   */
  restore(): void;
  /**
   * Carries new connections again, but the ones open now are lost without a word: their server
   * side is closed and their client side left open and silent until `restore()`, as when a
   * firewall or NAT on the way dropped their state, or the server restarted behind the black hole.
   */
  forget(): void;
  /** As a stopped server: open connections are reset and new ones closed at once, until `restore()`. */
  refuse(): void;
  /** Connections through the proxy that are open now. */
  readonly open: number;
  /** Open connections whose client sent bytes that are held, unanswered (a statement, or a connection's startup). */
  readonly held: number;
  close(): Promise<void>;
}

const END = 'end';

/** Carries bytes, or a goodbye, on to `socket`. */
function deliver(socket: Socket, what: Buffer | typeof END): void {
  if (what === END) socket.end();
  else socket.write(what);
}

interface Pair {
  readonly client: Socket;
  readonly server: Socket;
  /** Bytes held while swallowing, each way, in order; `END` for a side's goodbye (its FIN). */
  readonly toServer: Array<Buffer | typeof END>;
  readonly toClient: Array<Buffer | typeof END>;
}

/**
 * A TCP proxy in front of a real database that can be switched to a black hole: what a suspended
 * server or a network dropping every packet looks like from the client. Nothing is refused or
 * closed — the kernel still accepts connections and takes bytes — but no answer comes back until
 * `restore()`, when what was held is delivered, as TCP retransmission or the resumed server would.
 */
export async function blackHoleProxy(upstreamUrl: string): Promise<BlackHoleProxy> {
  const upstream = new URL(upstreamUrl);
  const pairs = new Set<Pair>();
  const forgotten = new Set<Socket>();
  let swallowing = false;
  let refusing = false;

  // Half-open sockets: a client's goodbye is held like its bytes, as a suspended server never answers it.
  const server = createServer({ allowHalfOpen: true }, (client) => {
    if (refusing) return client.resetAndDestroy();
    const upstreamSocket = connect({ port: Number(upstream.port || 5432), host: upstream.hostname, allowHalfOpen: true });
    const pair: Pair = { client, server: upstreamSocket, toServer: [], toClient: [] };
    pairs.add(pair);
    const carry = (to: Socket, held: Pair['toServer']) => (what: Buffer | typeof END) => (swallowing ? held.push(what) : deliver(to, what));
    const toServer = carry(pair.server, pair.toServer);
    const toClient = carry(client, pair.toClient);
    client.on('data', toServer);
    client.on('end', () => toServer(END));
    pair.server.on('data', toClient);
    pair.server.on('end', () => toClient(END));
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      pair.server.destroy();
    };
    for (const socket of [client, pair.server]) {
      socket.on('close', end);
      socket.on('error', end);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no TCP address');
  const url = new URL(upstreamUrl);
  url.hostname = '127.0.0.1';
  url.port = String(address.port);

  return {
    url: url.toString(),
    swallow() {
      swallowing = true;
    },
    restore() {
      swallowing = false;
      refusing = false;
      for (const client of forgotten) client.resetAndDestroy();
      for (const pair of pairs) {
        for (const what of pair.toServer.splice(0)) deliver(pair.server, what);
        for (const what of pair.toClient.splice(0)) deliver(pair.client, what);
      }
    },
    forget() {
      swallowing = false;
      for (const pair of pairs) {
        pairs.delete(pair);
        // The client side stays open and reads what it is sent into nothing; it hears nothing back.
        pair.client.removeAllListeners('data');
        pair.client.removeAllListeners('end');
        pair.client.removeAllListeners('close');
        pair.client.on('data', () => undefined);
        pair.client.on('close', () => forgotten.delete(pair.client));
        forgotten.add(pair.client);
        pair.server.removeAllListeners('close');
        pair.server.destroy();
      }
    },
    refuse() {
      refusing = true;
      for (const pair of pairs) {
        pair.client.resetAndDestroy();
        pair.server.destroy();
      }
    },
    get open() {
      return pairs.size;
    },
    get held() {
      return [...pairs].filter((pair) => pair.toServer.length > 0).length;
    },
    async close() {
      for (const client of forgotten) client.destroy();
      for (const pair of pairs) {
        pair.client.destroy();
        pair.server.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
