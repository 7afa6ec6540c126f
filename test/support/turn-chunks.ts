import type { UiChunk } from '../../domain/threads/ui-chunk.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { TurnStream } from '../../ports/use-cases/threads.js';

/** The text a turn's chunks wrote. */
export const textIn = (chunks: ReadonlyArray<UiChunk>) =>
  chunks.flatMap((c) => (c.type === 'text-delta' ? [(c as { delta: string }).delta] : [])).join('');

/** Each message as `role:text`: a thread as a test compares it. */
export const texts = (messages: ReadonlyArray<UiMessage>) =>
  messages.map((m) => `${m.role}:${m.parts.flatMap((p) => (p.type === 'text' ? [(p as { text: string }).text] : [])).join('')}`);

/** Reads a stream until `done` holds for what was read so far; the reader stays attached. */
export async function readUntil(stream: TurnStream, done: (chunks: UiChunk[]) => boolean): Promise<UiChunk[]> {
  const iterator = stream.chunks[Symbol.asyncIterator]();
  const seen: UiChunk[] = [];
  while (!done(seen)) {
    const next = await iterator.next();
    if (next.done) throw new Error(`the turn ended first: ${JSON.stringify(seen)}`);
    seen.push(next.value);
  }
  return seen;
}
