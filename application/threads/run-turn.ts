import { Conflict, InvalidInput, NotFound } from '../../domain/errors.js';
import { chunksRebuilding, type UiChunk } from '../../domain/threads/ui-chunk.js';
import { textOf, type UiMessage } from '../../domain/threads/ui-message.js';
import { rewound } from '../../domain/threads/rewind.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { Logger } from '../../ports/logger.js';
import type { Model } from '../../ports/model.js';
import type { UseCase } from '../../ports/use-case.js';
import type { TurnRequest, TurnStream } from '../../ports/use-cases/threads.js';
import type { GuardUseCases } from '../../ports/use-cases/guard.js';
import { LOST_RACE, retryOnConflict } from '../shared/retry-on-conflict.js';
import type { AgentTurn } from './agent-turn.js';
import type { LoadedThread, ThreadBook } from './thread-book.js';
import type { ThreadWaits } from './thread-waits.js';
import type { TurnHub } from './turn-hub.js';
import type { TurnLease } from './turn-lease.js';
import { TurnRelay } from './turn-relay.js';
import type { TurnFeeds, TurnSettings } from './turn-settings.js';
import type { UsageMeter } from '../usage/usage-meter.js';
import type { TurnSlot, TurnSlots } from '../usage/turn-slots.js';

export { TURN_LEASE_MS } from './turn-settings.js';

/** Chunks of turns whose instance died are pruned once they are this old. */
const PRUNE_AFTER_MS = 6 * 60 * 60 * 1000;
/** How often this instance prunes them (at a turn's start). */
const PRUNE_EVERY_MS = 10 * 60 * 1000;

/** What RunTurn is built from. */
export interface RunTurnDeps {
  readonly threads: ThreadBook;
  readonly agent: AgentTurn;
  readonly hub: TurnHub;
  readonly decide: GuardUseCases['decideApproval'];
  readonly model: Model;
  readonly ids: Ids;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly feeds: TurnFeeds;
  readonly lease: TurnLease;
  readonly waits: ThreadWaits;
  readonly settings: TurnSettings;
  /** The subject's `turns` and `tokens` budgets; absent, nothing is metered. */
  readonly meter?: UsageMeter;
  /** The bound on the subject's turns in flight (`maxTurnsInFlight`); absent, none. */
  readonly slots?: TurnSlots;
}

/** A turn that took its thread: the thread as it was, and whether the turn before it was left by a dead instance. */
interface Started {
  readonly loaded: LoadedThread;
  readonly turnId: string;
  readonly abandoned: string | null;
}

/**
 * `POST /threads/:id/turn`. The server owns history: only the new user message is taken. Approval
 * answers carried back on tool parts (the AI SDK's own approval response) are decided first. The
 * turn then runs in the background while the caller reads its chunks; every chunk also goes to
 * the turn's feed, so readers on any instance can rejoin it. The turn holds its thread with a
 * lease renewed while it runs; a turn left by an instance that died is released when its lease
 * lapses, and the next turn starts over it.
 *
 * While a turn runs, a second message does what `concurrentTurns` says: `reject` answers 409;
 * `enqueue` takes a place in the thread's line and streams once the turns ahead of it ended;
 * `interrupt` also asks the turn in flight to stop.
 */
export class RunTurn implements UseCase<TurnRequest, TurnStream> {
  private prunedAt = 0;

  constructor(private readonly parts: RunTurnDeps) {}

  async execute(request: TurnRequest): Promise<TurnStream> {
    const { threads, hub, settings } = this.parts;
    this.parts.model.assertConfigured();
    if (request.message && request.message.role !== 'user') throw new InvalidInput('A new message in a turn must come from the user');
    await threads.ownedBy(request.principal.subject, request.threadId);
    // A turn whose clients all left is still saving what it produced; let it finish first.
    await hub.settled(request.threadId);
    const started = await this.start(request.threadId);
    if (started) return this.begin(request, started);
    if (settings.concurrentTurns === 'reject')
      throw new Conflict('A turn is already in flight on this thread; rejoin it with GET /threads/:id/stream');
    return this.waitInLine(request);
  }

  /** Takes the thread for a new turn when it is free and nobody waits ahead (`ticket`: the caller's place in line). */
  private async start(threadId: string, ticket?: string): Promise<Started | null> {
    const { threads, hub, clock, ids, settings } = this.parts;
    const loaded = await threads.find(threadId);
    if (!loaded) throw new NotFound('Thread');
    const now = clock.now().toISOString();
    if (!loaded.thread.canStartTurnAt(now, ticket) || hub.find(threadId)) return null;
    const turnId = ticket ?? ids.mint('turn');
    const abandoned = loaded.thread.abandonedTurn(now)?.id ?? null;
    if (!(await threads.swap(loaded, loaded.thread.startTurn(turnId, now, settings.leaseMs, ticket)))) return null;
    return { loaded, turnId, abandoned };
  }

  private async begin(request: TurnRequest, { loaded, turnId, abandoned }: Started): Promise<TurnStream> {
    const { threads, hub, agent, feeds, lease, logger, settings } = this.parts;
    const threadId = request.threadId;
    let slot: TurnSlot | null = null;
    try {
      if (abandoned) {
        logger.info("a turn whose instance died was released; the thread's next turn goes on", { threadId, turnId: abandoned });
        void feeds.chunks.drop(abandoned).catch(() => undefined);
      }
      this.pruneNowAndThen();
      // Once the thread is held (a refused or queued-out turn spends nothing): the turn takes one of
      // the subject's places in flight, then a turn with nothing left of its tokens is refused
      // before it spends a turn, then the turn's unit is reserved. Any refusal releases the thread
      // (and the place) and answers 429.
      slot = (await this.parts.slots?.take(request.principal, turnId)) ?? null;
      await this.parts.meter?.ensureLeft(request.principal, 'tokens');
      await this.parts.meter?.charge(request.principal, 'turns');
      for (const answer of request.answers ?? []) await this.answer(request, answer.approvalId, answer.approved);
      let messages = await threads.messagesOf(threadId);
      // The dead instance never said what its turn added: count again.
      if (abandoned) {
        const count = messages.length;
        await threads.update(threadId, (thread) => thread.recounted(count));
      }
      let added = 0;
      if (request.rewind) {
        const { kept, removed } = rewound(messages, request.rewind);
        await threads.deleteMessages(removed);
        messages = kept;
        added -= removed.length;
      }
      let continuing: UiMessage | null = null;
      if (request.message) {
        const message: UiMessage = {
          id: this.parts.ids.mint('message'),
          role: 'user',
          parts: request.message.parts,
          ...(request.message.metadata !== undefined ? { metadata: request.message.metadata } : {}),
        };
        await threads.putMessage(threadId, message);
        messages.push(message);
        added += 1;
        if (loaded.thread.toPrimitives().messageCount === 0) await this.retitle(threadId, textOf(message));
      } else {
        const last = messages[messages.length - 1];
        continuing = last?.role === 'assistant' && !request.rewind ? last : null;
      }
      if (!continuing) added += 1;

      const live = hub.begin(threadId, continuing);
      const relay = new TurnRelay(feeds.chunks, turnId, logger, continuing ? chunksRebuilding(continuing) : []);
      let unhold: () => void;
      try {
        unhold = await lease.hold(threadId, turnId, live);
      } catch (error) {
        // Never started: it must not hold this instance's side of the thread either.
        hub.finish(live);
        throw error;
      }
      const reader = live.read();
      void agent
        .run({
          principal: request.principal,
          threadId,
          messages,
          continuing,
          ...(request.credentials ? { credentials: request.credentials } : {}),
          signal: live.abort.signal,
          stop: live.stopping.signal,
          emit: (chunk: UiChunk) => {
            live.push(chunk);
            relay.push(chunk);
          },
        })
        .then(
          () => added,
          (error: unknown) => {
            logger.error('a turn could not be finished', { threadId, cause: String(error) });
            // The thread must not stay locked for the whole lease; whether the answer was saved is
            // unknown, so only the person's message is counted.
            return continuing ? added : added - 1;
          },
        )
        .then(async (counted) => {
          unhold();
          await slot?.release();
          // Readers elsewhere have every chunk before the thread says the turn is over.
          await relay.flushed();
          await this.release(threadId, turnId, counted);
        })
        .catch((error: unknown) => logger.error('a turn could not be released', { threadId, cause: String(error) }))
        .finally(() => {
          hub.finish(live);
          relay.dropAfter(settings.lingerMs);
          // Whoever waits for this thread (a stop, a turn in line) looks again.
          void feeds.signals.signal(threadId).catch(() => undefined);
        });
      return reader;
    } catch (error) {
      await slot?.release();
      await this.release(threadId, turnId, 0);
      void feeds.signals.signal(threadId).catch(() => undefined);
      throw error;
    }
  }

  /**
   * `enqueue` and `interrupt`: a place at the end of the thread's line, kept while this instance
   * lives; the stream answers at once (keep-alives flow meanwhile) and carries the turn once every
   * turn ahead has ended. A reader who leaves first gives the place up.
   */
  private async waitInLine(request: TurnRequest): Promise<TurnStream> {
    const { threads, hub, ids, clock, feeds, settings } = this.parts;
    const threadId = request.threadId;
    const ticket = ids.mint('turn');
    const interrupted: { turnId: string | null } = { turnId: null };
    const queued = await threads.update(threadId, (thread) => {
      const now = clock.now().toISOString();
      let next = thread.queue(ticket, now, settings.leaseMs);
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

    const left = new AbortController();
    const held: { running: TurnStream | null } = { running: null };
    return {
      threadId,
      chunks: this.onceFirstInLine(request, ticket, left.signal, held),
      detach: () => {
        left.abort();
        held.running?.detach();
      },
    };
  }

  /** The stream of a turn waiting in line: nothing (but keep-alives) until its place comes, then the turn. */
  private async *onceFirstInLine(
    request: TurnRequest,
    ticket: string,
    left: AbortSignal,
    held: { running: TurnStream | null },
  ): AsyncGenerator<UiChunk> {
    const { hub, waits, settings, logger } = this.parts;
    const threadId = request.threadId;
    const place: { started: Started | null } = { started: null };
    const keep = setInterval(() => void this.keepPlace(threadId, ticket), Math.max(50, Math.floor(settings.leaseMs / 3)));
    keep.unref?.();
    try {
      await waits.until(
        threadId,
        async () => {
          await hub.settled(threadId);
          place.started = await this.start(threadId, ticket);
          return place.started !== null;
        },
        { abort: left },
      );
    } catch (error) {
      logger.warn('a turn waiting in line could not start', { threadId, cause: error instanceof Error ? error.message : String(error) });
      yield* failed(error);
      return;
    } finally {
      clearInterval(keep);
      if (!place.started) await this.leaveLine(threadId, ticket);
    }
    if (!place.started) return;
    try {
      held.running = await this.begin(request, place.started);
    } catch (error) {
      yield* failed(error);
      return;
    }
    yield* held.running.chunks;
  }

  /** The waiting instance lives on: its place in line is kept (taken again if it lapsed meanwhile). */
  private async keepPlace(threadId: string, ticket: string): Promise<void> {
    const { threads, clock, settings, logger } = this.parts;
    try {
      await threads.update(threadId, (thread) => {
        if (thread.toPrimitives().activeTurn?.id === ticket) return null;
        const now = clock.now().toISOString();
        return thread.keepPlace(ticket, now, settings.leaseMs) ?? thread.queue(ticket, now, settings.leaseMs);
      });
    } catch (error) {
      logger.warn('keeping a place in line failed', { threadId, cause: error instanceof Error ? error.message : String(error) });
    }
  }

  private async leaveLine(threadId: string, ticket: string): Promise<void> {
    try {
      await this.parts.threads.update(threadId, (thread) => thread.leaveLine(ticket));
      await this.parts.feeds.signals.signal(threadId);
    } catch {
      // The place lapses on its own.
    }
  }

  /** An approval answer is recorded once; the same answer again is harmless. */
  private async answer(request: TurnRequest, approvalId: string, approve: boolean): Promise<void> {
    try {
      await this.parts.decide.execute({ principal: request.principal, approvalId, approve });
    } catch (error) {
      if (!(error instanceof Conflict)) throw error;
    }
  }

  private async retitle(threadId: string, text: string): Promise<void> {
    await this.parts.threads.update(threadId, (thread) => thread.titledBy(text));
  }

  /** Now and then, chunks that instances which died left behind are removed. */
  private pruneNowAndThen(): void {
    const now = this.parts.clock.now().getTime();
    if (now - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = now;
    void this.parts.feeds.chunks.prune(new Date(now - PRUNE_AFTER_MS).toISOString()).catch(() => undefined);
  }

  private async release(threadId: string, turnId: string, added: number): Promise<void> {
    const { threads, clock } = this.parts;
    // Every round lost means another write landed; if they never stop, the lease lapses on its own.
    await retryOnConflict(
      async () => {
        const current = await threads.find(threadId);
        if (!current) return;
        return (await threads.swap(current, current.thread.endTurn(turnId, clock.now().toISOString(), added))) ? undefined : LOST_RACE;
      },
      { exhausted: () => undefined },
    );
  }
}

async function* failed(error: unknown): AsyncGenerator<UiChunk> {
  yield { type: 'error', errorText: error instanceof Error ? error.message : 'The turn could not start.' };
  yield { type: 'finish', finishReason: 'error' };
}
