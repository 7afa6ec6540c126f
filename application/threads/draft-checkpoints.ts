import type { Logger } from '../../ports/logger.js';

/** How often an answer being written is saved while it streams, so a crash loses at most this much. */
export const DRAFT_CHECKPOINT_MS = 2_000;

/**
 * Saves an answer while it is being written: `touch` after each change, and at most one save per
 * period runs, one at a time, with the answer as it then is. `close` waits for the save under way
 * and stops, so the final save that follows is never overtaken by an older checkpoint.
 */
export class DraftCheckpoints {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private saving: Promise<void> = Promise.resolve();
  private changed = false;
  private closed = false;

  constructor(
    private readonly save: () => Promise<void>,
    private readonly everyMs: number,
    private readonly logger: Logger,
    private readonly context: Record<string, unknown>,
  ) {}

  touch(): void {
    if (this.closed || this.everyMs <= 0) return;
    this.changed = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.saving = this.saving.then(() => this.checkpoint());
    }, this.everyMs);
    this.timer.unref?.();
  }

  /**
   * Saves now, after the save under way, and rejects when that save fails: for a record the caller
   * must have before it goes on (a run's tool call, written before it starts and once it ends).
   */
  async now(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.changed = false;
    const saved = this.saving.then(() => this.save());
    this.saving = saved.catch(() => {
      this.changed = true;
    });
    await saved;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.saving;
  }

  private async checkpoint(): Promise<void> {
    if (this.closed || !this.changed) return;
    this.changed = false;
    try {
      await this.save();
    } catch (error) {
      this.logger.warn('an answer could not be checkpointed; the next checkpoint tries again', {
        ...this.context,
        cause: error instanceof Error ? error.message : String(error),
      });
      this.changed = true;
    }
  }
}
