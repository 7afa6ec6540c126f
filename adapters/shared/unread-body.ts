import type { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { Middleware } from 'koa';

/** How much of a refused body is read and thrown away after the answer, at most. */
export const LINGER_BYTES = 64 * 1024 * 1024;
/** How long the connection stays open after the answer for the client to finish sending, at most. */
export const LINGER_MS = 10_000;

export interface LingerLimits {
  readonly bytes: number;
  readonly ms: number;
}

const LINGER: LingerLimits = { bytes: LINGER_BYTES, ms: LINGER_MS };

/**
 * Outermost wire middleware. An error answered while the request body is still arriving (413
 * past a limit, or any refusal that stopped reading) says `Connection: close` and then closes
 * the connection cleanly: see `lingerOnClose`.
 */
export function closeAfterUnreadBody(limits: LingerLimits = LINGER): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.status < 400 || ctx.req.complete || ctx.headerSent) return;
    ctx.set('Connection', 'close');
    lingerOnClose(ctx.req, ctx.res, limits);
  };
}

/**
 * Node ends a `Connection: close` answer by destroying the socket once the answer is written. If
 * the client is still sending, the unread bytes make the kernel send a reset, and a reset can
 * reach the client before it has read the answer (EPIPE/ECONNRESET instead of a 413). So: the
 * rest of the body is read and discarded; the answer goes out followed by our FIN; the socket is
 * destroyed when the client closes its side, or past `limits` (bytes or time) for a client that
 * never stops. An in-memory connection (the fetch mount) has no kernel to reset: its host stops
 * the body when it sees the close.
 */
export function lingerOnClose(req: IncomingMessage, res: ServerResponse, limits: LingerLimits = LINGER): void {
  const socket = req.socket;
  if (!(socket instanceof Socket) || socket.destroyed) return;
  let discarded = 0;
  // Never before the answer has been handed to the kernel.
  let letting = false;
  const letGo = () => {
    if (letting) return;
    letting = true;
    if (res.writableFinished) socket.destroy();
    else res.once('finish', () => socket.destroy());
  };
  const timer = setTimeout(letGo, limits.ms);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > limits.bytes) letGo();
  });
  req.resume();
  // What Node calls after a `Connection: close` answer: half-close instead, and wait for the client.
  (socket as Socket & { destroySoon(): void }).destroySoon = () => {
    socket.end();
    // The client's FIN: it has stopped sending and read what it wanted.
    socket.once('end', () => socket.destroy());
    // A socket that was paused for backpressure must keep reading to see that FIN.
    socket.resume();
  };
}
