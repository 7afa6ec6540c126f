import { Conflict, InvalidInput, NotFound } from '../../domain/errors.js';
import { chunksRebuilding, type UiChunk } from '../../domain/threads/ui-chunk.js';
import { textOf, type UiMessage } from '../../domain/threads/ui-message.js';
import { rewound, type Rewind } from '../../domain/threads/rewind.js';
import { sentIdOf } from '../../domain/threads/sent-message.js';
import { asReadDuring, interruptionOf, uninterrupted } from '../../domain/threads/interruption.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { Logger } from '../../ports/logger.js';
import type { Model } from '../../ports/model.js';
import type { UseCase } from '../../ports/use-case.js';
import type { TurnRequest, TurnStream } from '../../ports/use-cases/threads.js';
import type { GuardUseCases } from '../../ports/use-cases/guard.js';
import type { AgentTurn } from './agent-turn.js';
import type { LoadedThread, ThreadBook } from './thread-book.js';
import type { ThreadWaits } from './thread-waits.js';
import type { TurnHub } from './turn-hub.js';
import type { TurnLease } from './turn-lease.js';
import { TurnRelay } from './turn-relay.js';
import { TurnSettlement } from './turn-settlement.js';
import type { TurnFeeds, TurnSettings } from './turn-settings.js';
import type { UsageMeter } from '../usage/usage-meter.js';
import type { TurnSlot, TurnSlots } from '../usage/turn-slots.js';
import type { SentAgain } from './sent-again.js';
import type { MessageAttachments } from '../files/message-attachments.js';
import type { TurnHolders } from './turn-holders.js';
import type { ThreadTitler } from './thread-titler.js';

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
  /** Checks a new message's file parts against the person's uploads; absent, a message with one is refused. */
  readonly attachments?: MessageAttachments;
  /** Answers a person's message sent again under the client's id (a retry) instead of storing it twice. */
  readonly again: SentAgain;
  /** Judges holds by the engine's liveness marks (PostgreSQL); absent, by their leases alone. */
  readonly holders?: TurnHolders;
  /** Names a thread after its first answer; absent, the first message names it. */
  readonly titler?: ThreadTitler;
}

/**
 * A turn that took its thread: the thread as it was, whether the turn before it was left by a dead
 * instance, and the client's id of the message it carries.
 */
interface Started {
  readonly loaded: LoadedThread;
  /** The thread as the turn's start stored it: the revision its next write is checked against. */
  readonly held: LoadedThread;
  readonly turnId: string;
  readonly abandoned: string | null;
  readonly sent: string | null;
}

/**
 * `POST /threads/:id/turn`. The server owns history: only the new user message is taken. Approval
 * answers carried back on tool parts (the AI SDK's own approval response) are decided first. The
 * turn then runs in the background while the caller reads its chunks; every chunk also goes to
 * the turn's feed, so readers on any instance can rejoin it. The turn holds its thread with a
 * lease renewed while it runs; a turn left by an instance that died is released when its lease
 * lapses (on PostgreSQL, as soon as its instance's liveness mark is gone), and the next turn starts over it.
 *
 * While a turn runs, a second message does what `concurrentTurns` says: `reject` answers 409;
 * `enqueue` takes a place in the thread's line and streams once the turns ahead of it ended;
 * `interrupt` also asks the turn in flight to stop. A message the client sent before (the same
 * id) is not stored again: it joins the turn carrying it, or gets the answer stored (SentAgain).
 */
export class RunTurn implements UseCase<TurnRequest, TurnStream> {
  private prunedAt = 0;
  /** How each turn ends: its thread released, its stream closed, then its title. */
  private readonly settlement: TurnSettlement;

  constructor(private readonly parts: RunTurnDeps) {
    this.settlement = new TurnSettlement(parts);
  }

  async execute(asked: TurnRequest): Promise<TurnStream> {
    const { threads, hub, settings } = this.parts;
    this.parts.model.assertConfigured();
    if (asked.message && asked.message.role !== 'user') throw new InvalidInput('A new message in a turn must come from the user');
    const seen = await threads.ownedBy(asked.principal.subject, asked.threadId);
    const request = asked.message ? { ...asked, message: await this.attachmentsChecked(asked, asked.message) } : asked;
    // A turn whose clients all left is still saving what it produced; let it finish first.
    await hub.settled(request.threadId);
    const { message } = request;
    const sent = sentIdOf(message, request.rewind !== undefined);
    // A message sent before is found once the thread is held (begin), or else here: the turn
    // holding the thread may carry it, or it was answered before the turn in flight began.
    const started = await this.start(request.threadId, undefined, sent, seen);
    if (started) return this.begin(request, started);
    const before = sent && message && (await this.parts.again.answer(request.threadId, sent, message));
    if (before) return before;
    if (settings.concurrentTurns === 'reject')
      throw new Conflict('A turn is already in flight on this thread; rejoin it with GET /threads/:id/stream');
    return this.waitInLine(request);
  }

  /** The message with its file parts checked against the person's uploads in this thread. */
  private async attachmentsChecked(request: TurnRequest, message: UiMessage): Promise<UiMessage> {
    if (this.parts.attachments) return this.parts.attachments.checked(request.principal, request.threadId, message);
    if (message.parts.some((part) => part.type === 'file')) throw new InvalidInput('This host takes no file uploads');
    return message;
  }

  /**
   * Takes the thread for a new turn when it is free and nobody waits ahead (`ticket`: the caller's
   * place in line). `seen`: the thread as the caller read it a moment ago, tried first to spare a
   * read; when it no longer holds (busy then, or moved since), the thread is read again.
   */
  private async start(threadId: string, ticket?: string, sent: string | null = null, seen?: LoadedThread): Promise<Started | null> {
    const { threads, hub, clock, ids, settings, holders } = this.parts;
    const loaded = seen ?? (await threads.find(threadId));
    if (!loaded) throw new NotFound('Thread');
    const again = () => (seen ? this.start(threadId, ticket, sent) : null);
    const now = clock.now().toISOString();
    if (hub.find(threadId)) return again();
    const thread = (await holders?.freed(loaded.thread, now, ticket)) ?? loaded.thread;
    if (!thread.canStartTurnAt(now, ticket)) return again();
    const turnId = ticket ?? ids.mint('turn');
    const abandoned = thread.abandonedTurn(now)?.id ?? null;
    const held = await threads.swap(loaded, thread.startTurn(turnId, now, settings.leaseMs, ticket, sent ?? undefined, holders?.mine));
    if (!held) return again();
    return { loaded, held, turnId, abandoned, sent };
  }

  private async begin(request: TurnRequest, started: Started): Promise<TurnStream> {
    const { loaded, turnId, abandoned } = started;
    const { threads, hub, agent, feeds, lease, logger } = this.parts;
    const threadId = request.threadId;
    let slot: TurnSlot | null = null;
    // The thread as this turn last stored it, while nothing else is known to have written it since.
    let latest: LoadedThread | null = started.held;
    try {
      if (abandoned) {
        logger.info("a turn whose instance died was released; the thread's next turn goes on", { threadId, turnId: abandoned });
        void feeds.chunks.drop(abandoned).catch(() => undefined);
      }
      this.pruneNowAndThen();
      // What the dead instance's turn left unanswered keeps the mark its readers were shown.
      if (abandoned) await this.markUnanswered(threadId);
      // Held, the thread is ours alone: a message stored before under this id was stored by a turn that held it.
      const answered = await this.parts.again.whileHeld({
        before: loaded.thread,
        abandoned: abandoned !== null,
        sent: started.sent,
        message: request.message,
        release: () => this.settlement.letGo(threadId, turnId),
      });
      if (answered) return answered;
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
        latest = null;
      }
      let added = 0;
      if (request.rewind) {
        const { kept, removed } = rewound(messages, await this.storedRewind(threadId, request.rewind, messages));
        // What the turn replaces is kept as an earlier version, one switch away.
        await threads.shelveMessages(threadId, removed);
        if (removed.length > 0) {
          await threads.update(threadId, (thread) => thread.keptVersion(kept.at(-1)?.id ?? '', removed));
          latest = null;
        }
        messages = kept;
        added -= removed.length;
      }
      let continuing: UiMessage | null = null;
      let firstAnswer = false;
      if (request.message) {
        // A new message is not interrupted, whatever the client's copy says.
        const message: UiMessage = uninterrupted({
          id: this.parts.ids.mint('message'),
          role: 'user',
          parts: request.message.parts,
          ...(request.message.metadata !== undefined ? { metadata: request.message.metadata } : {}),
        });
        // An edited message keeps the client's id as its label, so a later edit of it finds it again.
        const label = started.sent ?? (request.rewind?.kind === 'message' && request.message.id ? request.message.id : undefined);
        const opening = loaded.thread.toPrimitives().messageCount === 0;
        if (latest) latest = await threads.putOpening(latest, message, label);
        else {
          await threads.putMessage(threadId, message, label);
          if (opening) await this.retitle(threadId, textOf(message));
        }
        messages.push(message);
        added += 1;
        if (opening) firstAnswer = true;
      } else {
        const last = messages[messages.length - 1];
        continuing = last?.role === 'assistant' && !request.rewind ? last : null;
        // The person's message answered again (a Retry): this turn answers it, so it is no longer interrupted.
        if (last?.role === 'user' && interruptionOf(last)) {
          messages[messages.length - 1] = uninterrupted(last);
          await threads.restate(messages[messages.length - 1]!);
        }
      }
      if (!continuing) added += 1;

      const live = hub.begin(threadId, turnId, continuing);
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
      const ran = agent.run({
        principal: request.principal,
        threadId,
        messages,
        continuing,
        ...(request.credentials ? { credentials: request.credentials } : {}),
        signal: live.abort.signal,
        stop: live.stopping.signal,
        owner: loaded.thread.owner,
        fresh: messages.length === 1 && request.message !== undefined && !request.rewind,
        emit: (chunk: UiChunk) => {
          live.push(chunk);
          relay.push(chunk);
        },
      });
      const settled = { principal: request.principal, threadId, turnId, live, relay, unhold, slot, added, latest, firstAnswer };
      void this.settlement.settle({ ...settled, continuing: continuing !== null, owner: loaded.thread.owner, messages }, ran);
      return reader;
    } catch (error) {
      await this.settlement.letGo(threadId, turnId, slot);
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
      let next = thread.queue(ticket, now, settings.leaseMs, this.parts.holders?.mine);
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
          place.started = await this.start(threadId, ticket, sentIdOf(request.message, request.rewind !== undefined));
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
        return thread.keepPlace(ticket, now, settings.leaseMs) ?? thread.queue(ticket, now, settings.leaseMs, this.parts.holders?.mine);
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

  /**
   * The rewind naming the stored message the client meant: the chrome knows a message it sent (or
   * edited) in this page by its own id, which the thread keeps as that message's label.
   */
  private async storedRewind(threadId: string, rewind: Rewind, messages: ReadonlyArray<UiMessage>): Promise<Rewind> {
    const { messageId } = rewind;
    if (rewind.kind !== 'message' || !messageId || messages.some((message) => message.id === messageId)) return rewind;
    const stored = await this.parts.threads.sentMessage(threadId, messageId);
    return stored ? { ...rewind, messageId: stored.id } : rewind;
  }

  /** The person's message a dead instance's turn left without a saved answer, stored marked interrupted. */
  private async markUnanswered(threadId: string): Promise<void> {
    const messages = await this.parts.threads.messagesOf(threadId);
    const marked = asReadDuring(messages, 'abandoned').at(-1);
    if (marked && marked !== messages.at(-1)) await this.parts.threads.restate(marked);
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
}

async function* failed(error: unknown): AsyncGenerator<UiChunk> {
  yield { type: 'error', errorText: error instanceof Error ? error.message : 'The turn could not start.' };
  yield { type: 'finish', finishReason: 'error' };
}
