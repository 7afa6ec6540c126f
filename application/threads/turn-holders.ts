import type { Thread } from '../../domain/threads/thread.js';
import type { InstanceLiveness } from '../../ports/liveness.js';
import type { Logger } from '../../ports/logger.js';

/**
 * Who holds a thread's turns, judged by the engine's liveness marks (PostgreSQL: a session advisory
 * lock per instance) where there are any: a turn, or a place in line, records this instance's
 * holder name while its mark is held, and a hold whose instance's mark is gone may be taken over at
 * once instead of when its lease lapses. Without marks (SQLite, memory: NoInstanceLiveness) leases alone decide.
 */
export class TurnHolders {
  constructor(
    private readonly liveness: InstanceLiveness,
    private readonly holder: string,
    private readonly logger: Logger,
  ) {}

  /** The name this instance's holds carry; none while it holds no mark (others could not judge it). */
  get mine(): string | undefined {
    return this.liveness.holding ? this.holder : undefined;
  }

  /**
   * The thread with the holds of dead instances lapsed. The marks are read only when a hold that
   * names its instance stands in the way, so a free thread costs no statement more.
   */
  async freed(thread: Thread, now: string, ticket?: string): Promise<Thread> {
    // One that lost its own mark cannot judge others' (its own connection may be what failed).
    if (!this.liveness.holding) return thread;
    if (thread.holdersInTheWay(now, ticket).length === 0) return thread;
    try {
      const marks = await this.liveness.alive();
      return thread.lapsedWhere((holder) => !marks.isAlive(holder), now);
    } catch (error) {
      this.logger.warn('liveness marks could not be read; turn leases decide', {
        threadId: thread.id,
        cause: error instanceof Error ? error.message : String(error),
      });
      return thread;
    }
  }
}
