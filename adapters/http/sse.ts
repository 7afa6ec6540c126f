import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { JsonToSseTransformStream, UI_MESSAGE_STREAM_HEADERS } from 'ai';
import type { Context } from 'koa';
import type { TurnStream } from '../../ports/use-cases/threads.js';

/**
 * Sends a turn as the AI SDK UI message stream protocol v1: SSE framed by the AI SDK's own
 * `JsonToSseTransformStream` (ending with `data: [DONE]`), with its headers. A client that goes
 * away detaches; when nobody reads any more the turn is aborted.
 */
export function sendTurn(ctx: Context, turn: TurnStream): void {
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
  ctx.req.socket.setNoDelay(true);
  ctx.res.once('close', () => turn.detach());
  ctx.status = 200;
  ctx.set({ ...UI_MESSAGE_STREAM_HEADERS, 'x-porter-thread-id': turn.threadId });
  ctx.body = Readable.fromWeb(chunks.pipeThrough(new JsonToSseTransformStream()) as NodeReadableStream<string>);
}
