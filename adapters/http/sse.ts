import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { UI_MESSAGE_STREAM_HEADERS } from 'ai';
import type { Context } from 'koa';
import type { TurnStream } from '../../ports/use-cases/threads.js';

/** An SSE comment: readers (the AI SDK's among them) skip it; proxies see bytes and keep the stream open. */
export const KEEP_ALIVE_COMMENT = ': keep-alive\n\n';
/** The stream's last event, as the AI SDK's `JsonToSseTransformStream` ends it. */
const DONE = 'data: [DONE]\n\n';
/**
 * Longest a turn's `finish` event is held for the stream's end to join it in one write: the turn
 * releases its thread in between (a round trip to the store), and a stream whose end does not come
 * loses no more than this.
 */
const FINISH_HOLD_MS = 100;

export interface TurnStreamOptions {
  /** Longest silence before a keep-alive comment is sent. */
  readonly keepAliveMs: number;
}

/**
 * Sends a turn as the AI SDK UI message stream protocol v1: SSE framed as the AI SDK's own
 * `JsonToSseTransformStream` frames it (one `data:` line of JSON a chunk, ending with `data: [DONE]`),
 * with its headers. While the stream is open and nothing was sent for `keepAliveMs` (a long tool
 * call, a turn waiting in line), an SSE comment goes out, so proxies with an idle timeout keep the
 * connection. A client that goes away detaches; the turn runs on (unless the host gives up turns
 * nobody reads: `turnGraceSeconds`).
 *
 * Each chunk is pushed into the response as soon as the turn yields it, in the same tick, so the
 * chunks a turn emits together leave in one socket write (the response corks until the next tick);
 * a web stream pipeline here cost a write, and several promises, a chunk.
 */
export function sendTurn(ctx: Context, turn: TurnStream, options: TurnStreamOptions): void {
  const iterator = turn.chunks[Symbol.asyncIterator]();
  let resume: (() => void) | null = null;
  let pumping = false;
  const body = new Readable({
    // Strings pass to the response as they are, with no Buffer a chunk.
    objectMode: true,
    read() {
      const wake = resume;
      resume = null;
      wake?.();
      if (!pumping) {
        pumping = true;
        void pump();
      }
    },
    destroy(error, callback) {
      keepAlive.stop();
      turn.detach();
      const wake = resume;
      resume = null;
      wake?.();
      callback(error);
    },
  });
  const keepAlive = keepingAlive(options.keepAliveMs, () => body.push(KEEP_ALIVE_COMMENT));
  const socket = ctx.req.socket;
  // The turn's `finish`, `[DONE]` and the response's end leave in one write: the end is written a
  // tick after the last event, and the turn lets its thread go between `finish` and the end.
  let finishHeld: (() => void) | null = null;
  const pump = async () => {
    try {
      for (;;) {
        const next = await iterator.next();
        if (body.destroyed) return;
        if (next.done) {
          keepAlive.stop();
          socket.cork();
          body.push(DONE);
          body.push(null);
          setImmediate(() => {
            socket.uncork();
            finishHeld?.();
          });
          return;
        }
        if (next.value.type === 'finish' && !finishHeld) finishHeld = holdWrites(socket, FINISH_HOLD_MS);
        keepAlive.sent();
        // The reader is behind: the turn's own buffer holds what follows until it reads again.
        if (!body.push(`data: ${JSON.stringify(next.value)}\n\n`)) await new Promise<void>((wake) => (resume = wake));
      }
    } catch (error) {
      body.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  };
  ctx.req.socket.setNoDelay(true);
  ctx.res.once('close', () => {
    keepAlive.stop();
    turn.detach();
  });
  ctx.status = 200;
  ctx.set({ ...UI_MESSAGE_STREAM_HEADERS, 'x-porter-thread-id': turn.threadId });
  ctx.body = body;
}

/** Holds `socket`'s writes until the answer is called, or `ms` passed. */
function holdWrites(socket: Socket, ms: number): () => void {
  socket.cork();
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    clearTimeout(timer);
    socket.uncork();
  };
  const timer = setTimeout(release, ms);
  timer.unref?.();
  return release;
}

/**
 * Calls `send` whenever nothing was sent for `ms`. One timer for the stream's life: each chunk
 * sent only notes the time, and the timer, when it fires early, waits out the rest.
 */
function keepingAlive(ms: number, send: () => void): { sent(): void; stop(): void } {
  let last = Date.now();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const arm = (wait: number) => {
    timer = setTimeout(() => {
      timer = null;
      const idle = Date.now() - last;
      if (idle < ms) return arm(ms - idle);
      try {
        send();
      } catch {
        // The reading side is gone.
        return;
      }
      last = Date.now();
      arm(ms);
    }, wait);
    timer.unref?.();
  };
  arm(ms);
  return {
    sent: () => void (last = Date.now()),
    stop: () => {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
