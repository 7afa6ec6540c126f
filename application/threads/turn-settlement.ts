import type { Principal } from '../../domain/principal.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import { LOST_RACE, retryOnConflict } from '../shared/retry-on-conflict.js';
import type { TurnSlot } from '../usage/turn-slots.js';
import type { LoadedThread, ThreadBook } from './thread-book.js';
import type { ThreadTitler } from './thread-titler.js';
import type { LiveTurn, TurnHub } from './turn-hub.js';
import type { TurnRelay } from './turn-relay.js';
import type { TurnFeeds } from './turn-settings.js';
import { asItComes, type Together } from '../shared/together.js';

/** What TurnSettlement is built from. */
export interface TurnSettlementDeps {
  readonly threads: ThreadBook;
  readonly hub: TurnHub;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly feeds: TurnFeeds;
  readonly settings: { readonly lingerMs: number };
  /** Names a thread after its first answer; absent, the first message names it. */
  readonly titler?: ThreadTitler | undefined;
  /** How a turn's end writes go to the store together (Store.together); absent where the store cannot group them. */
  readonly together?: Together | undefined;
}

/** A turn that ran, as its settlement needs it. */
export interface RanTurn {
  readonly principal: Principal;
  readonly threadId: string;
  readonly turnId: string;
  readonly live: LiveTurn;
  readonly relay: TurnRelay;
  /** Ends the lease's renewals and the stop watch. */
  readonly unhold: () => void;
  readonly slot: TurnSlot | null;
  /** The messages the turn adds to the thread when its answer is saved. */
  readonly added: number;
  /** Whether it carried on an answer already stored (then a failure still counts it). */
  readonly continuing: boolean;
  /** The thread as the turn last stored it, tried first to spare a read; null when unknown. */
  readonly latest: LoadedThread | null;
  /** The thread's first answer: the thread is titled after it. */
  readonly firstAnswer: boolean;
  /** The thread's owner as the turn found it, whom its answer was indexed under. */
  readonly owner: string;
  /** The thread's messages the turn answered (its first answer's question among them). */
  readonly messages: ReadonlyArray<UiMessage>;
}

/**
 * How a turn ends, in this order, whatever happened to it: its lease stops being renewed, its place
 * among the subject's turns in flight is given back, readers elsewhere get its last chunks, the
 * thread is released (counting what it added), its stream closes, whoever waits for the thread looks
 * again, and then, its first answer in, the thread is titled (a slow title holds nothing up).
 */
export class TurnSettlement {
  constructor(private readonly deps: TurnSettlementDeps) {}

  /** Settles `turn` once `ran` (the agent's run) settled; never rejects. */
  async settle(turn: RanTurn, ran: Promise<UiMessage>): Promise<void> {
    const { hub, logger, feeds, settings, titler } = this.deps;
    const { threadId } = turn;
    let answer: UiMessage | null = null;
    const counted = await ran.then(
      (saved) => {
        answer = saved;
        return turn.added;
      },
      (error: unknown) => {
        logger.error('a turn could not be finished', { threadId, cause: String(error) });
        // The thread must not stay locked for the whole lease; whether the answer was saved is
        // unknown, so only the person's message is counted.
        return turn.continuing ? turn.added : turn.added - 1;
      },
    );
    let released: LoadedThread | null = null;
    // Whether whoever waits for the thread was told once it was released.
    let told = false;
    try {
      turn.unhold();
      // Readers elsewhere have every chunk before the thread says the turn is over: the place, the
      // last chunks, the release and the word to whoever waits go to the store at once, in one
      // transaction where it can (the release lands with the chunks, the word on its commit), once
      // no earlier append is under way. Waiters here look once this turn is finished (hub.settled).
      await turn.relay.idle();
      const { together } = this.deps;
      // The word goes with the release only where they commit together and the release needs no read first.
      const tellingTogether = together !== undefined && turn.latest !== null;
      const rounds = { count: 0 };
      let signalled = false;
      [, , released] = await (together ?? asItComes)(() =>
        Promise.all([
          turn.slot?.release(),
          turn.relay.flushed(),
          this.release(threadId, turn.turnId, counted, turn.latest, rounds),
          tellingTogether
            ? feeds.signals.signal(threadId).then(
                () => (signalled = true),
                () => undefined,
              )
            : undefined,
        ]),
      );
      // A release decided in a later round landed after the word: it is said again below.
      told = signalled && rounds.count === 1;
      // Moved to another person mid-turn (a session adopted): the answer was indexed under the one before.
      if (released && released.thread.owner !== turn.owner) await this.deps.threads.reindex(threadId);
    } catch (error) {
      logger.error('a turn could not be released', { threadId, cause: String(error) });
    } finally {
      hub.finish(turn.live);
      turn.relay.dropAfter(settings.lingerMs);
      // Whoever waits for this thread (a stop, a turn in line) looks again.
      if (!told) void feeds.signals.signal(threadId).catch(() => undefined);
      // Once the turn is settled and its stream closed: a slow title model holds neither the
      // stream nor the thread (readers pick the title up when they next read the list).
      if (turn.firstAnswer && answer)
        titler?.start(turn.principal, threadId, { released: released ?? undefined, opening: [...turn.messages, answer] });
    }
  }

  /** A turn that took its thread and will not run (refused, answered from the store) lets it go. */
  async letGo(threadId: string, turnId: string, slot: TurnSlot | null = null): Promise<void> {
    await slot?.release();
    await this.release(threadId, turnId, 0);
    void this.deps.feeds.signals.signal(threadId).catch(() => undefined);
  }

  /**
   * `latest`: the thread as this turn last stored it, tried first to spare a read; a lost race reads
   * again. Answers the thread as released, or null when it is gone or every round was lost.
   */
  private async release(
    threadId: string,
    turnId: string,
    added: number,
    latest: LoadedThread | null = null,
    rounds = { count: 0 },
  ): Promise<LoadedThread | null> {
    const { threads, clock } = this.deps;
    let known = latest;
    // Every round lost means another write landed; if they never stop, the lease lapses on its own.
    return retryOnConflict<LoadedThread | null>(
      async () => {
        rounds.count += 1;
        const current = known ?? (await threads.find(threadId));
        known = null;
        if (!current) return null;
        return (await threads.swap(current, current.thread.endTurn(turnId, clock.now().toISOString(), added))) ?? LOST_RACE;
      },
      { exhausted: () => null },
    );
  }
}
