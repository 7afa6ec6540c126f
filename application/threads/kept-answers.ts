import { saveRetryDelayMs, unsavedAnswerText, worthRetrying, type AnswerSaving } from '../../domain/threads/answer-saving.js';
import type { Logger } from '../../ports/logger.js';

/**
 * Finished answers the store could not take: each is tried again with backoff while the stream
 * waits (AnswerSaving.streamWaitMs), then in the background for as long as this instance lives,
 * so an answer people saw is not lost to a database that blinked. At most `maxKept` wait at once.
 */
export class KeptAnswers {
  private readonly kept = new Map<number, string>();
  private next = 0;

  constructor(
    private readonly saving: AnswerSaving,
    private readonly logger: Logger,
  ) {}

  /** How many answers wait for the store now. */
  get waiting(): number {
    return this.kept.size;
  }

  /**
   * Saves with `write`; null once saved, else why the answer is not saved (to end its stream
   * with): still kept and tried again, or refused for good.
   */
  async save(write: () => Promise<void>, threadId: string): Promise<string | null> {
    // The pauses are what is counted: a store that is away answers at once (refused) or by its own timeout.
    let waited = 0;
    for (let attempt = 1; ; attempt += 1) {
      try {
        await write();
        return null;
      } catch (error) {
        if (!worthRetrying(error)) {
          this.logger.error('an answer could not be saved', { threadId, cause: causeOf(error) });
          return unsavedAnswerText(false);
        }
        if (attempt === 1) this.logger.warn('the store did not take an answer; it is tried again', { threadId, cause: causeOf(error) });
        const delay = saveRetryDelayMs(this.saving, attempt);
        if (waited + delay > this.saving.streamWaitMs) return this.keep(write, threadId, attempt, causeOf(error));
        waited += delay;
        await pause(delay, false);
      }
    }
  }

  /** Goes on trying in the background; past the bound, the oldest answer waiting is given up. */
  private keep(write: () => Promise<void>, threadId: string, attempt: number, cause: string): string {
    if (this.kept.size >= this.saving.maxKept) {
      const [oldest, itsThread] = this.kept.entries().next().value as [number, string];
      this.kept.delete(oldest);
      this.logger.error('too many answers wait for the store; the oldest is given up', { threadId: itsThread });
    }
    const key = this.next++;
    this.kept.set(key, threadId);
    this.logger.warn('an answer is kept until the store takes it', { threadId, cause });
    void this.retry(key, write, threadId, attempt);
    return unsavedAnswerText(true);
  }

  private async retry(key: number, write: () => Promise<void>, threadId: string, attempt: number): Promise<void> {
    for (let tries = attempt; this.kept.has(key); tries += 1) {
      // Unreferenced: a kept answer does not hold a closing process open.
      await pause(saveRetryDelayMs(this.saving, tries), true);
      if (!this.kept.has(key)) return;
      try {
        await write();
        this.kept.delete(key);
        this.logger.info('a kept answer was saved', { threadId });
      } catch (error) {
        if (worthRetrying(error)) continue;
        this.kept.delete(key);
        this.logger.error('a kept answer could not be saved', { threadId, cause: causeOf(error) });
      }
    }
  }
}

function pause(ms: number, unref: boolean): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    if (unref) timer.unref?.();
  });
}

function causeOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
