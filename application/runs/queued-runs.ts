import type { Clock } from '../../ports/clock.js';
import type { QueuedRunSource } from '../../ports/scheduler.js';
import type { RunBook } from './run-book.js';

/** How many of the newest queued runs one look reads. */
const LOOK_AT = 200;
/** Picks come from the oldest `count × SPREAD` candidates, so instances looking at once mostly pick different runs. */
const SPREAD = 4;

/**
 * The store's queued runs as a shared queue: an instance with room picks due ones, oldest first,
 * at random among the oldest few, so several instances looking at the same moment rarely offer
 * their executors the same run (when they do, the executor's claim has one winner and the others
 * move on). Only an offer: admission (the automation's concurrency) and the claim still decide.
 */
export class QueuedRuns implements QueuedRunSource {
  constructor(
    private readonly runs: RunBook,
    private readonly clock: Clock,
  ) {}

  async pick(count: number, skip: ReadonlySet<string>): Promise<string[]> {
    if (count <= 0) return [];
    const now = this.clock.now().toISOString();
    const page = await this.runs.list({ state: 'queued' }, LOOK_AT);
    const candidates = page.items
      .filter(({ run }) => run.dueAt(now) && !skip.has(run.id))
      .map(({ run }) => run.id)
      .reverse();
    const window = candidates.slice(0, count * SPREAD);
    for (let i = window.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [window[i], window[j]] = [window[j]!, window[i]!];
    }
    return window.slice(0, count);
  }
}
