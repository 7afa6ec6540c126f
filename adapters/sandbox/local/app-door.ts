import { createServer, type Server, type Socket } from 'node:net';

/**
 * Where Porter reaches one app server: a port on the host's loopback whose every connection is
 * joined to a fresh connection to the server inside its sandbox (handed over by the gate as a
 * descriptor). The app cannot reach it, replace it or point it anywhere else.
 */
export class AppDoor {
  private constructor(
    private readonly server: Server,
    readonly port: number,
    /** Both sides of every connection through the door, so close() ends them. */
    private readonly sockets: Set<Socket>,
  ) {}

  static open(connect: () => Promise<Socket>): Promise<AppDoor> {
    const sockets = new Set<Socket>();
    const server = createServer({ pauseOnConnect: true }, (client) => {
      track(sockets, client);
      client.on('error', () => client.destroy());
      connect().then(
        (inside) => {
          track(sockets, inside);
          if (client.destroyed) return void inside.destroy();
          inside.on('error', () => client.destroy());
          client.on('error', () => inside.destroy());
          inside.once('close', () => client.destroy());
          client.once('close', () => inside.destroy());
          client.pipe(inside);
          inside.pipe(client);
          client.resume();
          inside.resume();
        },
        () => client.destroy(),
      );
    });
    // Nothing waits on a door: it must not keep the host alive.
    server.unref();
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        resolve(new AppDoor(server, (server.address() as { port: number }).port, sockets));
      });
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function track(sockets: Set<Socket>, socket: Socket): void {
  sockets.add(socket);
  socket.once('close', () => sockets.delete(socket));
}
