/**
 * A request body that never ends, `chunkBytes` at a time (filled with `fill`), for tests of an upload
 * refused early: `pulled` counts the bytes read from it, `cancelled` says whether its reader let it go.
 */
export class EndlessBody {
  pulled = 0;
  cancelled = false;
  readonly stream: ReadableStream<Uint8Array>;

  constructor(chunkBytes: number, fill = 0) {
    this.stream = new ReadableStream<Uint8Array>({
      pull: (controller) => {
        this.pulled += chunkBytes;
        controller.enqueue(new Uint8Array(chunkBytes).fill(fill));
      },
      cancel: () => {
        this.cancelled = true;
      },
    });
  }
}
