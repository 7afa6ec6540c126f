import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { UiChunk } from '../../domain/threads/ui-chunk.js';
import type { ToolDefinition } from '../../ports/tool-registry.js';
import type { ThreadPrimitives } from '../../domain/threads/thread.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { TurnStream } from '../../ports/use-cases/threads.js';
import { AiSdkModel } from '../../adapters/model/ai-sdk-model.js';
import { StaticToolRegistry } from '../../adapters/tools/static-tool-registry.js';
import { ThreadBook } from '../../application/threads/thread-book.js';
import { RenameThread } from '../../application/threads/rename-thread.js';
import { SearchThreads } from '../../application/threads/search-threads.js';
import { ThreadTextBackfill, type BackfillMark } from '../../application/threads/thread-text-backfill.js';
import { ThreadsAdopter } from '../../application/threads/threads-adopter.js';
import { ThreadText } from '../../application/threads/thread-text.js';
import { TurnHub } from '../../application/threads/turn-hub.js';
import { AgentTurn } from '../../application/threads/agent-turn.js';
import type { TurnRecall } from '../../application/threads/turn-steps.js';
import { RunTurn } from '../../application/threads/run-turn.js';
import { CreateThread } from '../../application/threads/create-thread.js';
import { DeleteThread } from '../../application/threads/delete-thread.js';
import { GetThread } from '../../application/threads/get-thread.js';
import { RejoinTurn } from '../../application/threads/rejoin-turn.js';
import { StopTurn } from '../../application/threads/stop-turn.js';
import { ThreadWaits } from '../../application/threads/thread-waits.js';
import { TurnLease } from '../../application/threads/turn-lease.js';
import { TurnMirrors } from '../../application/threads/turn-mirrors.js';
import { TurnReaders } from '../../application/threads/turn-readers.js';
import { SentAgain } from '../../application/threads/sent-again.js';
import type { ReaderMark } from '../../domain/threads/turn-readers.js';
import { TurnStopper } from '../../application/threads/turn-stopper.js';
import {
  DEFAULT_TURN_SETTINGS,
  TURN_CHUNKS_FEED,
  TURN_SIGNALS_FEED,
  type TurnFeeds,
  type TurnSettings,
} from '../../application/threads/turn-settings.js';
import { ApprovalBook } from '../../application/guard/approval-book.js';
import type { ApprovalPrimitives } from '../../domain/guard/approval.js';
import type { ChatSettings } from '../../application/threads/chat-settings.js';
import type { Clock } from '../../ports/clock.js';
import { ada, guardHarness } from './guard-harness.js';
import { SequentialIds } from './fakes.js';
import type { Limits } from '../../domain/usage/budget.js';
import { LeasedTurnSlots } from '../../application/usage/turn-slots.js';
import { TurnsInFlightBook } from '../../application/usage/turns-in-flight-book.js';
import type { TurnsInFlightPrimitives } from '../../domain/usage/turns-in-flight.js';
import { usageMeterOn } from './usage-meter.js';
import { NoUsageMeter } from '../../application/usage/no-usage-meter.js';
import type { UsageMeter } from '../../application/usage/usage-meter.js';
import type { RecordSet, Store } from '../../ports/store.js';
import { ShowVersion } from '../../application/threads/show-version.js';
import { KeptAnswers } from '../../application/threads/kept-answers.js';
import { DEFAULT_ANSWER_SAVING, type AnswerSaving } from '../../domain/threads/answer-saving.js';
import { ThreadTitler } from '../../application/threads/thread-titler.js';

export interface TurnHarnessOptions {
  model: LanguageModelV4;
  tools?: ToolDefinition[];
  settings?: Partial<ChatSettings>;
  /** Opts into giving up turns nobody reads on any instance after this long; absent, turns run to their end. */
  graceMs?: number;
  /** Turn settings beside the defaults (short polls and waits suit tests). */
  turns?: Partial<TurnSettings>;
  clock?: Clock;
  /** The subjects' budgets (`limits`, `perAddress` shared by anonymous sessions); absent, nothing is metered. */
  limits?: Limits;
  perAddress?: Limits;
  /** The bound on each subject's turns in flight; absent, none. */
  maxTurnsInFlight?: number;
  /** What turns recall of the person's memories; absent, nothing. */
  recall?: TurnRecall;
  /** Wraps the thread messages' records (a store that fails for a while). */
  messages?: (records: RecordSet<UiMessage>) => RecordSet<UiMessage>;
  /** How a finished answer the store could not take is kept and tried again; absent, the defaults. */
  answerSaving?: Partial<AnswerSaving>;
  /** The model that names threads after their first answer; absent, the first message names them. */
  titleModel?: LanguageModelV4;
  /** The store under it all; absent, a memory store. */
  store?: Store;
}

/**
 * The conversation use cases over the in-memory store and the real guard. `instance()` builds the
 * same use cases again over the same store, clock and ids: another instance of the deployment, with
 * its own turns in flight, reached by the first only through the store and its feeds.
 */
export function turnHarness(options: TurnHarnessOptions) {
  const guard = guardHarness({
    tools: options.tools ?? [],
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.store ? { store: options.store } : {}),
  });
  const text = new ThreadText(guard.store.textIndex!('threads'));
  const messages = guard.store.records<UiMessage>('thread-messages');
  const threads = new ThreadBook(guard.store.records<ThreadPrimitives>('threads'), options.messages?.(messages) ?? messages, text);
  const ids = new SequentialIds();
  const feeds: TurnFeeds = { chunks: guard.store.feeds!(TURN_CHUNKS_FEED), signals: guard.store.feeds!(TURN_SIGNALS_FEED) };
  const settings: TurnSettings = { ...DEFAULT_TURN_SETTINGS, followCheckMs: 100, pollMs: 50, ...options.turns };
  const meter: UsageMeter = options.limits
    ? usageMeterOn(guard.store, guard.clock, options.limits, options.perAddress ?? null)
    : new NoUsageMeter();
  const slots =
    options.maxTurnsInFlight === undefined
      ? undefined
      : new LeasedTurnSlots({
          book: new TurnsInFlightBook(guard.store.records<TurnsInFlightPrimitives>('turns-in-flight')),
          keysOf: (payer) => meter.keysOf(payer),
          clock: guard.clock,
          logger: guard.logger,
          settings: { max: options.maxTurnsInFlight, leaseMs: settings.leaseMs },
        });

  const instance = (model: LanguageModelV4 = options.model) => {
    const logger = guard.logger;
    const readers =
      options.graceMs === undefined
        ? null
        : new TurnReaders({
            marks: guard.store.records<ReaderMark>('turn-readers'),
            ids,
            clock: guard.clock,
            logger,
            leaseMs: settings.leaseMs,
          });
    const hub = new TurnHub(readers && { graceMs: options.graceMs!, readers, recheckMs: Math.max(20, Math.min(options.graceMs!, 200)) });
    const aiModel = new AiSdkModel(model as never, 'custom', 'test');
    const agent = new AgentTurn({
      model: aiModel,
      tools: new StaticToolRegistry(options.tools ?? []),
      guard: guard.guard,
      executeApproved: guard.executeApproved,
      approvals: new ApprovalBook(guard.store.records<ApprovalPrimitives>('approvals')),
      threads,
      settings: { toolOutputCap: 32_000, maxSteps: 8, ...options.settings },
      ids,
      logger,
      clock: guard.clock,
      meter,
      ...(options.recall ? { recall: options.recall } : {}),
      kept: new KeptAnswers({ ...DEFAULT_ANSWER_SAVING, ...options.answerSaving }, logger),
    });
    const waits = new ThreadWaits(feeds.signals, settings.pollMs);
    const stopper = new TurnStopper({ threads, hub, feeds, waits, clock: guard.clock, settings });
    const mirrors = new TurnMirrors({ feeds, threads, clock: guard.clock, logger, settings, readers });
    const titler = options.titleModel
      ? new ThreadTitler({
          model: new AiSdkModel(options.titleModel as never, 'custom', 'title'),
          threads,
          logger,
          meter,
        })
      : null;
    const runTurn = new RunTurn({
      threads,
      agent,
      hub,
      decide: guard.decide,
      model: aiModel,
      ids,
      clock: guard.clock,
      logger,
      feeds,
      lease: new TurnLease({ threads, feeds, clock: guard.clock, logger, settings }),
      waits,
      settings,
      again: new SentAgain({ threads, hub, mirrors, clock: guard.clock }),
      meter,
      ...(slots ? { slots } : {}),
      ...(titler ? { titler } : {}),
    });
    const start = (threadId: string, text: string, principal = ada) =>
      runTurn.execute({ principal, threadId, message: { id: '', role: 'user', parts: [{ type: 'text', text }] } });
    return {
      hub,
      mirrors,
      /** Where readers on every instance are known (null unless `graceMs` opts into giving up unread turns). */
      readers,
      runTurn,
      /** Resolves once no title is being generated for the thread (the title follows the first turn). */
      titled: (threadId: string) => titler?.titled(threadId) ?? Promise.resolve(),
      rejoin: new RejoinTurn(threads, hub, mirrors, guard.clock),
      stop: new StopTurn(threads, stopper),
      deleteThread: new DeleteThread(threads, hub, stopper),
      showVersion: new ShowVersion({ threads, hub, ids, clock: guard.clock, leaseMs: settings.leaseMs }),
      /** Starts ada's turn with `text` and hands back its stream, unread. */
      start,
      /** Ada's turn with `text`, read to its end. */
      async say(threadId: string, text: string) {
        return collect(await start(threadId, text));
      },
    };
  };

  const first = instance();
  return {
    ...guard,
    ...first,
    threads,
    feeds,
    settings,
    meter,
    instance,
    createThread: new CreateThread(threads, ids, guard.clock),
    getThread: new GetThread(threads, guard.clock),
    renameThread: new RenameThread(threads, guard.clock),
    searchThreads: new SearchThreads(
      threads,
      text,
      new ThreadTextBackfill(threads, guard.store.records<BackfillMark>('thread-text-backfills'), guard.clock),
    ),
    adopter: new ThreadsAdopter(threads),
  };
}

export async function collect(stream: TurnStream): Promise<UiChunk[]> {
  const chunks: UiChunk[] = [];
  for await (const chunk of stream.chunks) chunks.push(chunk);
  return chunks;
}
