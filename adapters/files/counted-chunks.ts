import { PayloadTooLarge } from '../../domain/errors.js';

/**
 * `chunks` as they come, throwing PayloadTooLarge as soon as their total passes `maxBytes`, so the
 * source is not read further (the request's remaining body is left unread).
 */
export async function* countedChunks(
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
  seen: { size: number },
): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    seen.size += chunk.byteLength;
    if (seen.size > maxBytes) throw tooLarge(maxBytes);
    yield chunk;
  }
}

export function tooLarge(maxBytes: number): PayloadTooLarge {
  return new PayloadTooLarge(`A file may hold at most ${maxBytes} bytes`, { maxBytes });
}

/** Gathers small chunks into pieces of about `size` bytes (the last one shorter), copying only what it must. */
export async function* pieces(chunks: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Uint8Array> {
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  for await (const chunk of chunks) {
    held.push(chunk);
    heldBytes += chunk.byteLength;
    if (heldBytes >= size) {
      yield joined(held, heldBytes);
      held = [];
      heldBytes = 0;
    }
  }
  if (heldBytes > 0) yield joined(held, heldBytes);
}

function joined(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const all = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.byteLength;
  }
  return all;
}
