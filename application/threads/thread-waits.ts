import type { FeedSet } from '../../ports/feeds.js';

/**
 * Waiting on a thread that may change on another instance: `check` is asked at once, on every
 * wake-up of `key` on the signals feed, and at the latest every `pollMs` (a lost wake-up costs one
 * poll), until it holds, `timeoutMs` passes or `abort` fires.
 */
export class ThreadWaits {
  constructor(
    private readonly signals: FeedSet<never>,
    private readonly pollMs: number,
  ) {}

  async until(key: string, check: () => Promise<boolean>, options: { timeoutMs?: number; abort?: AbortSignal } = {}): Promise<boolean> {
    let over = false;
    let woken = false;
    let wake: () => void = () => undefined;
    const end = () => {
      over = true;
      wake();
    };
    const deadline = options.timeoutMs === undefined ? null : setTimeout(end, options.timeoutMs);
    options.abort?.addEventListener('abort', end, { once: true });
    const unwatch = await this.signals.watch(key, () => {
      woken = true;
      wake();
    });
    try {
      for (;;) {
        woken = false;
        if (await check()) return true;
        if (over || options.abort?.aborted) return false;
        if (woken) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, this.pollMs);
          function done() {
            clearTimeout(timer);
            resolve();
          }
          wake = done;
          if (woken || over) done();
        });
        wake = () => undefined;
      }
    } finally {
      unwatch();
      if (deadline) clearTimeout(deadline);
      options.abort?.removeEventListener('abort', end);
    }
  }
}
