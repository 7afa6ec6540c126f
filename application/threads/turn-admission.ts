import { Conflict, InvalidInput, NotFound } from '../../domain/errors.js';
import { textOf, type UiMessage } from '../../domain/threads/ui-message.js';
import { sentIdOf } from '../../domain/threads/sent-message.js';
import { asReadDuring } from '../../domain/threads/interruption.js';
import type { Model } from '../../ports/model.js';
import type { TurnRequest, TurnStream } from '../../ports/use-cases/threads.js';
import type { GuardUseCases } from '../../ports/use-cases/guard.js';
import type { MessageAttachments } from '../files/message-attachments.js';
import type { UsageMeter } from '../usage/usage-meter.js';
import type { TurnSlot, TurnSlots } from '../usage/turn-slots.js';
import type { SentAgain } from './sent-again.js';
import type { LoadedThread } from './thread-book.js';
import { TurnLine, type TurnLineDeps } from './turn-line.js';
import { TurnMessages, type ReadyMessages, type TakenThread } from './turn-messages.js';
import type { TurnSettlement } from './turn-settlement.js';
import { watchAhead, type WatchAhead } from './turn-lease.js';
import { asItComes, type Together } from '../shared/together.js';
import type { Logger } from '../../ports/logger.js';
import { defined } from '../../domain/defined.js';
import { recallFor, type TurnRecall } from './turn-steps.js';

/** Chunks of turns whose instance died are pruned once they are this old. */
const PRUNE_AFTER_MS = 6 * 60 * 60 * 1000;
/** How often this instance prunes them (at a turn's start). */
const PRUNE_EVERY_MS = 10 * 60 * 1000;

/** What TurnAdmission is built from (RunTurn's parts): its line's, and what the checks and the stored message need. */
export interface TurnAdmissionDeps extends TurnLineDeps {
  readonly decide: GuardUseCases['decideApproval'];
  readonly model: Model;
  /** The subject's `turns` and `tokens` budgets (`NoUsageMeter`: nothing is metered). */
  readonly meter: UsageMeter;
  /** The bound on the subject's turns in flight (`maxTurnsInFlight`); absent, none. */
  readonly slots?: TurnSlots | undefined;
  /** Checks a new message's file parts against the person's uploads; absent, a message with one is refused. */
  readonly attachments?: MessageAttachments | undefined;
  /** Answers a person's message sent again under the client's id (a retry) instead of storing it twice. */
  readonly again: SentAgain;
  /** How the place in flight, the thread's messages and the memories are fetched from the store together; absent, each as it comes. */
  readonly together?: Together | undefined;
  /** The person's memories recalled for a new message (the agent's own); absent, nothing is recalled here. */
  readonly recall?: TurnRecall | undefined;
  readonly logger: Logger;
}

/** A turn that holds its thread and passed every check, its messages stored: what its run needs. */
export interface AdmittedTurn extends ReadyMessages {
  readonly request: TurnRequest;
  readonly turnId: string;
  readonly slot: TurnSlot | null;
  /** The memories bearing on its new message, looked up with its first reads. */
  readonly recalled?: Promise<string | null>;
  /** The thread's owner as the turn found it. */
  readonly owner: string;
  /** The watch on the turn's stop signal, begun before it took its thread: the lease takes it over. */
  readonly ahead: WatchAhead;
}

/** A turn that waits in the thread's line: `admitted` waits for its place (null: the reader left first). */
export interface PlaceInLine {
  readonly threadId: string;
  admitted(left: AbortSignal): Promise<Exclude<Admission, { kind: 'in-line' }> | null>;
}

/** What admission answers: a turn that runs now, a message sent before answered from the store, or a place in line. */
export type Admission =
  | { readonly kind: 'admitted'; readonly turn: AdmittedTurn }
  | { readonly kind: 'answered'; readonly stream: TurnStream }
  | { readonly kind: 'in-line'; readonly place: PlaceInLine };

/** How a turn takes its thread (see TurnAdmission.start). */
interface Taking {
  readonly request: TurnRequest;
  readonly ticket?: string | undefined;
  readonly sent?: string | null;
  readonly opening?: string | undefined;
}

/** The text of the person's new message, which titles the thread when it is its first; none for a turn without one or one that rewinds. */
function openingOf(request: TurnRequest): string | undefined {
  return request.message && !request.rewind ? textOf(request.message) : undefined;
}

/** A turn that took its thread. */
interface Started extends TakenThread {
  readonly turnId: string;
  readonly ahead: WatchAhead;
  readonly first: FirstReads;
}

/**
 * What a turn reads in the round trip that takes its thread, each answer awaited once the thread is
 * held (a failure then lets the thread go): the thread's messages, the message stored under the
 * client's id, and the memories. An approval answer still to be recorded may change the messages:
 * they, and the memories, wait. (Reads only: a turn that loses the thread wasted a read, nothing
 * more. Its place among the subject's turns in flight is taken after, or racing turns that lose
 * the thread would hold places the winner needs.)
 */
interface FirstReads {
  readonly history?: Promise<UiMessage[]>;
  readonly sentBefore?: Promise<UiMessage | null>;
  readonly recalled?: Promise<string | null>;
}

/** `promise`, its rejection left for whoever awaits it later (none is unhandled meanwhile). */
function awaitedLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/**
 * How a turn request is admitted, in this order: the model and the message are checked, the turn
 * takes its thread's lease (or, per `concurrentTurns`, is refused or waits in the thread's line), a
 * message sent before is answered instead (SentAgain), the turn takes a place among the subject's
 * turns in flight and passes its budgets, the approval answers it carries are decided, and the
 * person's message is stored, once per id. A refusal after the thread was taken lets it go.
 */
export class TurnAdmission {
  private prunedAt = 0;
  private readonly line: TurnLine;
  private readonly messages: TurnMessages;

  constructor(
    private readonly deps: TurnAdmissionDeps,
    private readonly settlement: TurnSettlement,
  ) {
    this.line = new TurnLine(deps);
    this.messages = new TurnMessages(deps.threads, deps.ids);
  }

  async admit(asked: TurnRequest): Promise<Admission> {
    const { threads, hub, settings } = this.deps;
    this.deps.model.assertConfigured();
    if (asked.message && asked.message.role !== 'user') throw new InvalidInput('A new message in a turn must come from the user');
    const seen = await threads.ownedBy(asked.principal.subject, asked.threadId);
    const request = asked.message ? { ...asked, message: await this.attachmentsChecked(asked, asked.message) } : asked;
    // A turn whose clients all left is still saving what it produced; let it finish first.
    await hub.settled(request.threadId);
    const { message } = request;
    const sent = sentIdOf(message, request.rewind !== undefined);
    // A message sent before is found once the thread is held (`held`), or else here: the turn
    // holding the thread may carry it, or it was answered before the turn in flight began.
    const started = await this.start(request.threadId, { request, sent, opening: openingOf(request) }, seen);
    if (started) return this.held(request, started);
    const before = sent && message && (await this.deps.again.answer(request.threadId, sent, message));
    if (before) return { kind: 'answered', stream: before };
    if (settings.concurrentTurns === 'reject')
      throw new Conflict('A turn is already in flight on this thread; rejoin it with GET /threads/:id/stream');
    return { kind: 'in-line', place: await this.inLine(request) };
  }

  /** The message with its file parts checked against the person's uploads in this thread. */
  private async attachmentsChecked(request: TurnRequest, message: UiMessage): Promise<UiMessage> {
    if (this.deps.attachments) return this.deps.attachments.checked(request.principal, request.threadId, message);
    if (message.parts.some((part) => part.type === 'file')) throw new InvalidInput('This host takes no file uploads');
    return message;
  }

  /** A place at the end of the thread's line, admitted once every turn ahead has ended. */
  private async inLine(request: TurnRequest): Promise<PlaceInLine> {
    const { threadId } = request;
    const ticket = await this.line.join(threadId);
    const take = async () => {
      await this.deps.hub.settled(threadId);
      return this.start(threadId, {
        request,
        ticket,
        sent: sentIdOf(request.message, request.rewind !== undefined),
        opening: openingOf(request),
      });
    };
    return {
      threadId,
      admitted: async (left) => {
        const started = await this.line.reached(threadId, ticket, left, take);
        return started ? this.held(request, started) : null;
      },
    };
  }

  /**
   * Takes the thread for a new turn when it is free and nobody waits ahead (`ticket`: the caller's
   * place in line; `sent`: the client's id of the message it carries; `opening`: that message's
   * text, which titles a thread still empty in the same write). `seen`: the thread as the caller
   * read it a moment ago, tried first to spare a read; when it no longer holds (busy then, or moved
   * since), the thread is read again.
   */
  private async start(threadId: string, taking: Taking, seen?: LoadedThread): Promise<Started | null> {
    const { threads, hub, clock, ids, settings, holders } = this.deps;
    const { ticket, sent = null, opening } = taking;
    const loaded = seen ?? (await threads.find(threadId));
    if (!loaded) throw new NotFound('Thread');
    const again = () => (seen ? this.start(threadId, taking) : null);
    const now = clock.now().toISOString();
    if (hub.find(threadId)) return again();
    const thread = (await holders?.freed(loaded.thread, now, ticket)) ?? loaded.thread;
    if (!thread.canStartTurnAt(now, ticket)) return again();
    const turnId = ticket ?? ids.mint('turn');
    const abandoned = thread.abandonedTurn(now)?.id ?? null;
    // Watched before the thread is taken: a stop can name the turn only after, so none goes unheard.
    const ahead = await watchAhead(this.deps.feeds, turnId, settings.leaseMs);
    // The thread taken, and what the turn reads with it (FirstReads), in one round trip.
    let held: LoadedThread | null;
    let first: FirstReads = {};
    try {
      const taken = thread.startTurn(turnId, now, settings.leaseMs, ticket, sent ?? undefined, holders?.mine);
      held = await (this.deps.together ?? asItComes)(() => {
        const swapping = threads.swap(loaded, opening === undefined ? taken : taken.titledBy(opening));
        first = this.firstReads(taking.request, sent);
        return swapping;
      });
    } catch (error) {
      ahead.drop();
      throw error;
    }
    if (!held) {
      ahead.drop();
      return again();
    }
    return { loaded, held, turnId, abandoned, sent, ahead, first };
  }

  /** What a turn reads as it takes its thread (FirstReads); asked all at once, so they go together. */
  private firstReads(request: TurnRequest, sent: string | null): FirstReads {
    const { threadId, message } = request;
    const waiting = (request.answers ?? []).length > 0;
    return defined({
      history: waiting ? undefined : awaitedLater(this.deps.threads.messagesOf(threadId)),
      sentBefore: sent && message ? awaitedLater(this.deps.threads.sentMessage(threadId, sent)) : undefined,
      recalled: message && !waiting && this.deps.recall ? recallFor(this.deps, request.principal, textOf(message), threadId) : undefined,
    });
  }

  /** The steps a turn takes once it holds its thread, up to its messages stored; a refusal lets the thread go. */
  private async held(request: TurnRequest, started: Started): Promise<Exclude<Admission, { kind: 'in-line' }>> {
    const { loaded, turnId, abandoned } = started;
    const { feeds, logger } = this.deps;
    const threadId = request.threadId;
    let slot: TurnSlot | null = null;
    try {
      if (abandoned) {
        logger.info("a turn whose instance died was released; the thread's next turn goes on", { threadId, turnId: abandoned });
        void feeds.chunks.drop(abandoned).catch(() => undefined);
      }
      this.pruneNowAndThen();
      // What the dead instance's turn left unanswered keeps the mark its readers were shown.
      if (abandoned) await this.markUnanswered(threadId);
      // Held, the thread is ours alone: a message stored before under this id was stored by a turn
      // that held it. (Looked up as the thread was taken, unless a dead instance's turn was marked since.)
      const { first } = started;
      const answered = await this.deps.again.whileHeld({
        before: loaded.thread,
        abandoned: abandoned !== null,
        sent: started.sent,
        message: request.message,
        ...(abandoned ? {} : defined({ found: first.sentBefore })),
        release: () => this.settlement.letGo(threadId, turnId),
      });
      if (answered) {
        started.ahead.drop();
        return { kind: 'answered', stream: answered };
      }
      // Once the thread is held (a refused or queued-out turn spends nothing): the turn takes one of
      // the subject's places in flight, then a turn with nothing left of its tokens is refused
      // before it spends a turn, then the turn's unit is reserved. Any refusal releases the thread
      // (and the place) and answers 429.
      const answers = request.answers ?? [];
      slot = (await this.deps.slots?.take(request.principal, turnId)) ?? null;
      // What a dead instance's turn left was marked since the messages were read: read them again.
      const history = abandoned ? undefined : await first.history;
      const { recalled } = first;
      await this.deps.meter.ensureLeft(request.principal, 'tokens');
      await this.deps.meter.charge(request.principal, 'turns');
      for (const answer of answers) await this.answer(request, answer.approvalId, answer.approved);
      const ready = await this.messages.ready(request, started, history);
      return {
        kind: 'admitted',
        turn: { request, turnId, slot, owner: loaded.thread.owner, ahead: started.ahead, ...ready, ...defined({ recalled }) },
      };
    } catch (error) {
      started.ahead.drop();
      await this.settlement.letGo(threadId, turnId, slot);
      throw error;
    }
  }

  /** An approval answer is recorded once; the same answer again is harmless. */
  private async answer(request: TurnRequest, approvalId: string, approve: boolean): Promise<void> {
    try {
      await this.deps.decide.execute({ principal: request.principal, approvalId, approve });
    } catch (error) {
      if (!(error instanceof Conflict)) throw error;
    }
  }

  /** The person's message a dead instance's turn left without a saved answer, stored marked interrupted. */
  private async markUnanswered(threadId: string): Promise<void> {
    const messages = await this.deps.threads.messagesOf(threadId);
    const marked = asReadDuring(messages, 'abandoned').at(-1);
    if (marked && marked !== messages.at(-1)) await this.deps.threads.restate(marked);
  }

  /** Now and then, chunks that instances which died left behind are removed. */
  private pruneNowAndThen(): void {
    const now = this.deps.clock.now().getTime();
    if (now - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = now;
    void this.deps.feeds.chunks.prune(new Date(now - PRUNE_AFTER_MS).toISOString()).catch(() => undefined);
  }
}
