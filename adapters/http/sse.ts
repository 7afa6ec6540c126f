import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { JsonToSseTransformStream, UI_MESSAGE_STREAM_HEADERS } from 'ai';
import type { Context } from 'koa';
import type { TurnStream } from '../../ports/use-cases/threads.js';

/** An SSE comment: readers (the AI SDK's among them) skip it; proxies see bytes and keep the stream open. */
export const KEEP_ALIVE_COMMENT = ': keep-alive\n\n';

export interface TurnStreamOptions {
  /** Longest silence before a keep-alive comment is sent. */
  readonly keepAliveMs: number;
}

/**
 * Sends a turn as the AI SDK UI message stream protocol v1: SSE framed by the AI SDK's own
 * `JsonToSseTransformStream` (ending with `data: [DONE]`), with its headers. While the stream is
 * open and nothing was sent for `keepAliveMs` (a long tool call, a turn waiting in line), an SSE
 * comment goes out, so proxies with an idle timeout keep the connection. A client that goes away
 * detaches; the turn runs on (unless the host gives up turns nobody reads: `turnGraceSeconds`).
 */
export function sendTurn(ctx: Context, turn: TurnStream, options: TurnStreamOptions): void {
  const iterator = turn.chunks[Symbol.asyncIterator]();
  const chunks = new ReadableStream<unknown>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel() {
      turn.detach();
    },
  });
  const keepAlive = keepingAlive(options.keepAliveMs);
  ctx.req.socket.setNoDelay(true);
  ctx.res.once('close', () => {
    keepAlive.stop();
    turn.detach();
  });
  ctx.status = 200;
  ctx.set({ ...UI_MESSAGE_STREAM_HEADERS, 'x-porter-thread-id': turn.threadId });
  ctx.body = Readable.fromWeb(
    chunks.pipeThrough(new JsonToSseTransformStream()).pipeThrough(keepAlive.stream) as NodeReadableStream<string>,
  );
}

/** Passes SSE text through, adding a comment whenever nothing passed for `ms`. */
function keepingAlive(ms: number): { stream: TransformStream<string, string>; stop(): void } {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  let send: (text: string) => void = () => undefined;
  const stop = () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    timer = null;
  };
  const arm = () => {
    if (timer) clearTimeout(timer);
    if (stopped) return;
    timer = setTimeout(() => {
      try {
        send(KEEP_ALIVE_COMMENT);
        arm();
      } catch {
        // The reading side is gone.
        stop();
      }
    }, ms);
    timer.unref?.();
  };
  const stream = new TransformStream<string, string>({
    start(controller) {
      send = (text) => controller.enqueue(text);
      arm();
    },
    transform(text, controller) {
      controller.enqueue(text);
      arm();
    },
    flush: stop,
  });
  return { stream, stop };
}
