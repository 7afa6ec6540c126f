import { NotFound } from '../../domain/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { Logger } from '../../ports/logger.js';
import type { ThreadBook } from './thread-book.js';
import type { ThreadWaits } from './thread-waits.js';
import type { TurnHolders } from './turn-holders.js';
import type { TurnHub } from './turn-hub.js';
import type { TurnFeeds, TurnSettings } from './turn-settings.js';

/** What TurnLine is built from. */
export interface TurnLineDeps {
  readonly threads: ThreadBook;
  readonly hub: TurnHub;
  readonly ids: Ids;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly feeds: TurnFeeds;
  readonly waits: ThreadWaits;
  readonly settings: TurnSettings;
  /** Marks a place in line with this instance's liveness (PostgreSQL); absent, by its lease alone. */
  readonly holders?: TurnHolders | undefined;
}

/**
 * `enqueue` and `interrupt`: a place at the end of the thread's line, kept while this instance
 * lives, until the turns ahead of it ended and it takes the thread. A reader who leaves first
 * gives the place up.
 */
export class TurnLine {
  constructor(private readonly deps: TurnLineDeps) {}

  /** A place at the end of the thread's line (its ticket); with `interrupt`, the turn in flight is also asked to stop. */
  async join(threadId: string): Promise<string> {
    const { threads, hub, ids, clock, feeds, settings } = this.deps;
    const ticket = ids.mint('turn');
    const interrupted: { turnId: string | null } = { turnId: null };
    const queued = await threads.update(threadId, (thread) => {
      const now = clock.now().toISOString();
      let next = thread.queue(ticket, now, settings.leaseMs, this.deps.holders?.mine);
      const inFlight = next.turnInFlight(now);
      interrupted.turnId = null;
      if (settings.concurrentTurns === 'interrupt' && inFlight) {
        next = next.requestStop(inFlight.id);
        interrupted.turnId = inFlight.id;
      }
      return next;
    });
    if (!queued) throw new NotFound('Thread');
    if (settings.concurrentTurns === 'interrupt') {
      hub.find(threadId)?.stop();
      if (interrupted.turnId) await feeds.signals.signal(interrupted.turnId);
    }
    return ticket;
  }

  /**
   * What `take` gave once it gave something (the place's turn took the thread), the place kept
   * meanwhile; null when the reader left first. A place never taken is given up.
   */
  async reached<T>(threadId: string, ticket: string, left: AbortSignal, take: () => Promise<T | null>): Promise<T | null> {
    const { waits, settings, logger } = this.deps;
    const place: { taken: T | null } = { taken: null };
    const keep = setInterval(() => void this.keepPlace(threadId, ticket), Math.max(50, Math.floor(settings.leaseMs / 3)));
    keep.unref?.();
    try {
      await waits.until(
        threadId,
        async () => {
          place.taken = await take();
          return place.taken !== null;
        },
        { abort: left },
      );
    } catch (error) {
      logger.warn('a turn waiting in line could not start', { threadId, cause: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      clearInterval(keep);
      if (place.taken === null) await this.leaveLine(threadId, ticket);
    }
    return place.taken;
  }

  /** The waiting instance lives on: its place in line is kept (taken again if it lapsed meanwhile). */
  private async keepPlace(threadId: string, ticket: string): Promise<void> {
    const { threads, clock, settings, logger } = this.deps;
    try {
      await threads.update(threadId, (thread) => {
        if (thread.toPrimitives().activeTurn?.id === ticket) return null;
        const now = clock.now().toISOString();
        return thread.keepPlace(ticket, now, settings.leaseMs) ?? thread.queue(ticket, now, settings.leaseMs, this.deps.holders?.mine);
      });
    } catch (error) {
      logger.warn('keeping a place in line failed', { threadId, cause: error instanceof Error ? error.message : String(error) });
    }
  }

  private async leaveLine(threadId: string, ticket: string): Promise<void> {
    try {
      await this.deps.threads.update(threadId, (thread) => thread.leaveLine(ticket));
      await this.deps.feeds.signals.signal(threadId);
    } catch {
      // The place lapses on its own.
    }
  }
}
