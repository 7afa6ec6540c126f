/**
 * The first bytes of an upload, read ahead so they can be sniffed, and the whole upload again
 * (those bytes first) for the store to write: only the head is ever held.
 */
export async function readHead(
  chunks: AsyncIterable<Uint8Array>,
  headBytes: number,
): Promise<{ head: Uint8Array; whole: AsyncIterable<Uint8Array> }> {
  const iterator = chunks[Symbol.asyncIterator]();
  const held: Uint8Array[] = [];
  let size = 0;
  let done = false;
  while (size < headBytes) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    held.push(next.value);
    size += next.value.byteLength;
  }
  const head = new Uint8Array(size);
  let at = 0;
  for (const part of held) {
    head.set(part, at);
    at += part.byteLength;
  }
  const whole = (async function* () {
    if (head.byteLength > 0) yield head;
    if (done) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  })();
  return { head, whole };
}

/**
 * True when the bytes read as UTF-8 text without NUL (a sign of binary). The head may end inside a
 * character, so the decoder is told more may follow.
 */
export function looksLikeText(head: Uint8Array): boolean {
  if (head.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}
