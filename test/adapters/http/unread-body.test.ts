import { expect } from 'chai';
import Koa from 'koa';
import { connect } from 'node:net';
import { closeAfterUnreadBody } from '../../../adapters/shared/unread-body.js';
import { serve, type RunningServer } from '../../support/http-server.js';

/**
 * Sends a head declaring `declared` bytes and `sent` of them, then trickles 1 KiB every 20 ms
 * once the server has half-closed: resolves with the answer read and how long after it the
 * server let go of the connection (our writes start failing).
 */
function heldOpen(url: string, declared: number, sent: number): Promise<{ answer: string; afterMs: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port), allowHalfOpen: true });
    let answer = '';
    let answeredAt = 0;
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      answer += chunk;
      answeredAt ||= Date.now();
    });
    let trickle: NodeJS.Timeout | undefined;
    const done = () => {
      clearInterval(trickle);
      socket.destroy();
      resolve({ answer, afterMs: Date.now() - answeredAt });
    };
    socket.once('end', () => {
      trickle = setInterval(() => socket.write(Buffer.alloc(1024, 0x20)), 20);
    });
    socket.once('error', done);
    socket.once('close', done);
    socket.write(`POST /refuse HTTP/1.1\r\nHost: x\r\nContent-Length: ${declared}\r\n\r\n`);
    socket.write(Buffer.alloc(sent, 0x20));
  });
}

describe('closeAfterUnreadBody', function () {
  this.timeout(10_000);
  let server: RunningServer;

  before(async () => {
    const app = new Koa();
    app.use(closeAfterUnreadBody({ bytes: 256 * 1024, ms: 300 }));
    app.use((ctx) => {
      ctx.status = 413;
      ctx.body = { error: { code: 'payload-too-large', message: 'too large' } };
    });
    server = await serve(app.callback());
  });

  after(() => server.close());

  it('answers a client that stops sending mid-body, then closes after the linger time', async () => {
    const { answer, afterMs } = await heldOpen(server.url, 10 * 1024 * 1024, 1024);
    expect(answer)
      .to.match(/^HTTP\/1.1 413 /)
      .and.match(/\r\nconnection: close\r\n/i)
      .and.contain('payload-too-large');
    // Still reading (so no reset) for the linger time, then let go.
    expect(afterMs).to.be.within(250, 3_000);
  });

  it('lets go sooner of a client that sends past the byte bound', async () => {
    const { answer, afterMs } = await heldOpen(server.url, 100 * 1024 * 1024, 4 * 1024 * 1024);
    expect(answer).to.match(/^HTTP\/1.1 413 /);
    expect(afterMs).to.be.below(250);
  });
});
