/** The longest a Node timer can wait; a later hand-over is left to whoever hands work out again. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * Hand-overs for a later instant (a retry's backoff), each waiting on a timer in this process, for
 * the dispatchers to share how one waits and how stopping drops them. A dropped one is not lost:
 * its records stay, and the tick's sweep (or, for the shared queue, another instance's poll) hands
 * it out again.
 */
export class DelayedHandOvers {
  private readonly timers = new Set<NodeJS.Timeout>();

  /**
   * Whether `at` is still to come: then `handOver` runs when it does (never, when it is further off
   * than a timer can wait) and the caller hands nothing over now.
   */
  defer(at: Date | undefined, handOver: () => void): boolean {
    const wait = at ? at.getTime() - Date.now() : 0;
    if (wait <= 0) return false;
    if (wait > LONGEST_TIMER_MS) return true;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      handOver();
    }, wait);
    timer.unref();
    this.timers.add(timer);
    return true;
  }

  /** Drops every hand-over still waiting (its dispatcher stops). */
  clear(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
