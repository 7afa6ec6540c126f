import type { Client } from 'pg';

/**
 * Asks a held session (a connection kept open for what it holds: the liveness lock, the feeds'
 * LISTEN) a trivial statement every `everyMs`, since a server that stops answering never says the
 * session is lost. One written for both, so how a silent session is noticed changes in one place.
 */
export class HeldSessionCheck {
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly everyMs: number) {}

  /**
   * Checks `connection` after a while, and again after each answer while `held()` says it is still
   * the one held; a check that fails, or gets no answer within the deadline (pg's query_timeout), is
   * `lost(error)`.
   */
  start(connection: Client, held: () => boolean, lost: (error: Error) => void): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      connection.query('select 1').then(
        () => {
          if (held()) this.start(connection, held, lost);
        },
        (error: unknown) => lost(error instanceof Error ? error : new Error(String(error))),
      );
    }, this.everyMs);
    this.timer.unref?.();
  }

  /** Stops the next check (one already asked still reports to `held` and `lost`). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
