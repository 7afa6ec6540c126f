/**
 * A request body that never ends: a chunk of `chunkBytes` spaces each time it is read. It counts
 * what was `pulled` and whether the reader `cancelled` it, so a test sees a refused body stop being read.
 */
export function endlessBody(chunkBytes: number): {
  readonly stream: ReadableStream<Uint8Array>;
  readonly pulled: number;
  readonly cancelled: boolean;
} {
  let pulled = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += chunkBytes;
      controller.enqueue(new Uint8Array(chunkBytes).fill(0x20));
    },
    cancel() {
      cancelled = true;
    },
  });
  return {
    stream,
    get pulled() {
      return pulled;
    },
    get cancelled() {
      return cancelled;
    },
  };
}
