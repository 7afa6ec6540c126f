import { get, getOptional, porterModule, recordsOf, token, TOKENS, type Resolver } from '../tokens.js';
import type { Store } from '../../ports/store.js';
import type { Clock } from '../../ports/clock.js';
import type { ThreadPrimitives } from '../../domain/threads/thread.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import { ThreadBook } from '../../application/threads/thread-book.js';
import { TurnHub } from '../../application/threads/turn-hub.js';
import type { AgentTurn, AgentTurnDeps } from '../../application/threads/agent-turn.js';
import { RunTurn } from '../../application/threads/run-turn.js';
import { TracedAgentTurn } from '../../application/threads/traced-agent-turn.js';
import { CreateThread } from '../../application/threads/create-thread.js';
import { DeleteThread } from '../../application/threads/delete-thread.js';
import { GetThread } from '../../application/threads/get-thread.js';
import { ShowVersion } from '../../application/threads/show-version.js';
import { ListThreads } from '../../application/threads/list-threads.js';
import { RejoinTurn } from '../../application/threads/rejoin-turn.js';
import { StopTurn } from '../../application/threads/stop-turn.js';
import { ThreadWaits } from '../../application/threads/thread-waits.js';
import { TurnLease } from '../../application/threads/turn-lease.js';
import { TurnMirrors } from '../../application/threads/turn-mirrors.js';
import { TurnReaders } from '../../application/threads/turn-readers.js';
import { SentAgain } from '../../application/threads/sent-again.js';
import type { ReaderMark } from '../../domain/threads/turn-readers.js';
import { TurnStopper } from '../../application/threads/turn-stopper.js';
import { TurnHolders } from '../../application/threads/turn-holders.js';
import { KeptAnswers } from '../../application/threads/kept-answers.js';
import { DEFAULT_ANSWER_SAVING, type AnswerSaving } from '../../domain/threads/answer-saving.js';
import type { ChatSettings } from '../../application/threads/chat-settings.js';
import { engineLivenessOf, holderOf, livenessOf } from './instance-liveness.js';
import {
  DEFAULT_TURN_SETTINGS,
  TURN_CHUNKS_FEED,
  TURN_SIGNALS_FEED,
  type TurnFeeds,
  type TurnSettings,
} from '../../application/threads/turn-settings.js';
import { MemoryFeeds } from '../../adapters/store/memory/memory-feeds.js';
import { ThreadsAdopter } from '../../application/threads/threads-adopter.js';
import type { Model } from '../../ports/model.js';
import { RenameThread } from '../../application/threads/rename-thread.js';
import { SearchThreads } from '../../application/threads/search-threads.js';
import { THREAD_TEXT_COLLECTION, ThreadText } from '../../application/threads/thread-text.js';
import { ThreadTextBackfill, type BackfillMark } from '../../application/threads/thread-text-backfill.js';
import { storeTextIndex } from '../store-text-index.js';
import { threadRoutes } from '../../adapters/http/routes/thread-routes.js';
import { ThreadTitler } from '../../application/threads/thread-titler.js';
import { AiSdkModel } from '../../adapters/model/ai-sdk-model.js';
import { defined } from '../../domain/defined.js';

/** The turns' own services and settings, which a test may replace (composition/containers/test-container.ts). */
export const TURN_TOKENS = {
  /** How turns are held, polled and followed on this instance. */
  TurnSettings: token<TurnSettings>('TurnSettings'),
  /** What the agent loop is told: the configuration's chat options. */
  ChatSettings: token<ChatSettings>('ChatSettings'),
  /** How a finished answer the store could not take is kept and tried again. */
  AnswerSaving: token<AnswerSaving>('AnswerSaving'),
  /** How long a turn nobody reads lives on (`turnGraceSeconds`), and how often others' readers are asked; null: to its end. */
  TurnGrace: token<{ readonly graceMs: number; readonly recheckMs: number } | null>('TurnGrace'),
  TurnFeeds: token<TurnFeeds>('TurnFeeds'),
  TurnMirrors: token<TurnMirrors>('TurnMirrors'),
  /** Names threads after their first answer; null with `titleModel: false`. */
  ThreadTitler: token<ThreadTitler | null>('ThreadTitler'),
};

/** What the agent loop is built from (typed-wiring.typecheck.ts swaps two of them to prove tsc refuses it). */
export function agentTurnDeps(ctx: Resolver): AgentTurnDeps {
  return {
    model: get(ctx, TOKENS.Model),
    tools: get(ctx, TOKENS.ToolRegistry),
    guard: get(ctx, TOKENS.GuardCall),
    executeApproved: get(ctx, TOKENS.ExecuteApproved),
    approvals: get(ctx, TOKENS.ApprovalBook),
    threads: get(ctx, TOKENS.ThreadBook),
    settings: get(ctx, TURN_TOKENS.ChatSettings),
    ids: get(ctx, TOKENS.Ids),
    logger: get(ctx, TOKENS.Logger),
    clock: get(ctx, TOKENS.Clock),
    meter: get(ctx, TOKENS.UsageMeter),
    ...optional('recall', getOptional(ctx, TOKENS.TurnRecall)),
    attachments: get(ctx, TOKENS.ModelAttachments),
    kept: new KeptAnswers(get(ctx, TURN_TOKENS.AnswerSaving), get(ctx, TOKENS.Logger)),
  };
}

/** `{ [key]: value }` when there is a value, else nothing (exactOptionalPropertyTypes). */
function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/** What names threads after their first answer: the `titleModel` option, else the agent's model; none when `false`. */
function titlerOf(ctx: Resolver, threads: ThreadBook, model: Model): ThreadTitler | null {
  const chosen = get(ctx, TOKENS.Config).titleModel;
  if (chosen === false) return null;
  return new ThreadTitler({
    model: chosen ? new AiSdkModel(chosen, 'custom', 'title model') : model,
    threads,
    logger: get(ctx, TOKENS.Logger),
    meter: get(ctx, TOKENS.UsageMeter),
  });
}

/**
 * A turn's feeds on the store's own (shared by every instance on PostgreSQL), or within this
 * process for a host's Store that has none.
 */
function turnFeeds(store: Store, clock: Clock): TurnFeeds {
  if (store.feeds) return { chunks: store.feeds(TURN_CHUNKS_FEED), signals: store.feeds(TURN_SIGNALS_FEED) };
  const local = new MemoryFeeds(clock);
  return { chunks: local.feeds(TURN_CHUNKS_FEED), signals: local.feeds(TURN_SIGNALS_FEED) };
}

/** Conversations: threads and turns over SSE, on the model loaded at boot (TOKENS.Model). */
export const threadsModule = porterModule((bind) => {
  bind.singleton(TURN_TOKENS.TurnSettings, (ctx) => ({
    ...DEFAULT_TURN_SETTINGS,
    concurrentTurns: get(ctx, TOKENS.Config).concurrentTurns,
  }));
  bind.singleton(TURN_TOKENS.ChatSettings, (ctx) => {
    const config = get(ctx, TOKENS.Config);
    return {
      toolOutputCap: config.toolOutputCap,
      maxSteps: config.maxSteps,
      ...defined({ historyWindow: config.historyWindow, maxOutputTokens: config.maxOutputTokens, instructions: config.instructions }),
    };
  });
  bind(TURN_TOKENS.AnswerSaving).toConstantValue(DEFAULT_ANSWER_SAVING);
  bind.singleton(TURN_TOKENS.TurnGrace, (ctx) => {
    const graceSeconds = get(ctx, TOKENS.Config).turnGraceSeconds;
    if (graceSeconds === undefined) return null;
    const graceMs = graceSeconds * 1000;
    // While readers elsewhere follow a turn nobody reads here, the store is asked again at most once a second.
    return { graceMs, recheckMs: Math.max(1_000, Math.min(graceMs, DEFAULT_TURN_SETTINGS.leaseMs / 3)) };
  });
  bind.singleton(TURN_TOKENS.TurnFeeds, (ctx) => turnFeeds(get(ctx, TOKENS.Store), get(ctx, TOKENS.Clock)));
  bind.singleton(
    TURN_TOKENS.TurnMirrors,
    (ctx) =>
      new TurnMirrors({
        feeds: get(ctx, TURN_TOKENS.TurnFeeds),
        threads: get(ctx, TOKENS.ThreadBook),
        clock: get(ctx, TOKENS.Clock),
        logger: get(ctx, TOKENS.Logger),
        settings: get(ctx, TURN_TOKENS.TurnSettings),
        readers: get(ctx, TOKENS.TurnReaders),
      }),
  );
  bind.singleton(TURN_TOKENS.ThreadTitler, (ctx) => titlerOf(ctx, get(ctx, TOKENS.ThreadBook), get(ctx, TOKENS.Model)));
  bind.singleton(
    TOKENS.ThreadBook,
    (ctx) =>
      new ThreadBook(
        recordsOf<ThreadPrimitives>(ctx, 'threads'),
        recordsOf<UiMessage>(ctx, 'thread-messages'),
        new ThreadText(storeTextIndex(get(ctx, TOKENS.Store), THREAD_TEXT_COLLECTION)),
      ),
  );
  bind.singleton(TOKENS.TurnReaders, (ctx) => {
    if (get(ctx, TURN_TOKENS.TurnGrace) === null) return null;
    return new TurnReaders({
      marks: recordsOf<ReaderMark>(ctx, 'turn-readers'),
      ids: get(ctx, TOKENS.Ids),
      clock: get(ctx, TOKENS.Clock),
      logger: get(ctx, TOKENS.Logger),
      leaseMs: get(ctx, TURN_TOKENS.TurnSettings).leaseMs,
    });
  });
  bind.singleton(TOKENS.TurnHub, (ctx) => {
    const grace = get(ctx, TURN_TOKENS.TurnGrace);
    const readers = get(ctx, TOKENS.TurnReaders);
    // Absent, every turn runs to its end; set, one nobody reads on any instance is given up after it.
    if (!grace || !readers) return new TurnHub();
    return new TurnHub({ ...grace, readers });
  });
  // One agent loop serves chat turns and automation runs alike.
  bind.singleton(TOKENS.AgentTurn, (ctx): AgentTurn => new TracedAgentTurn(agentTurnDeps(ctx), get(ctx, TOKENS.Telemetry)));
  bind.singleton(TOKENS.ThreadUseCases, (ctx) => {
    const threads = get(ctx, TOKENS.ThreadBook);
    const hub = get(ctx, TOKENS.TurnHub);
    const model = get(ctx, TOKENS.Model);
    const agent = get(ctx, TOKENS.AgentTurn);
    const decide = get(ctx, TOKENS.GuardUseCases).decideApproval;
    const clock = get(ctx, TOKENS.Clock);
    const logger = get(ctx, TOKENS.Logger);
    const settings = get(ctx, TURN_TOKENS.TurnSettings);
    const feeds = get(ctx, TURN_TOKENS.TurnFeeds);
    const waits = new ThreadWaits(feeds.signals, settings.pollMs);
    const stopper = new TurnStopper({ threads, hub, feeds, waits, clock, settings });
    const holders = new TurnHolders(livenessOf(ctx), holderOf(ctx), logger);
    const mirrors = get(ctx, TURN_TOKENS.TurnMirrors);
    return {
      createThread: new CreateThread(threads, get(ctx, TOKENS.Ids), clock),
      listThreads: new ListThreads(threads, get(ctx, TOKENS.PendingDeletions)),
      searchThreads: new SearchThreads(
        threads,
        new ThreadText(storeTextIndex(get(ctx, TOKENS.Store), THREAD_TEXT_COLLECTION)),
        new ThreadTextBackfill(threads, recordsOf<BackfillMark>(ctx, 'thread-text-backfills'), clock),
      ),
      getThread: new GetThread(threads, clock, holders),
      showVersion: new ShowVersion({ threads, hub, ids: get(ctx, TOKENS.Ids), clock, leaseMs: settings.leaseMs }),
      renameThread: new RenameThread(threads, clock),
      deleteThread: new DeleteThread(threads, hub, stopper, get(ctx, TOKENS.ThreadFiles)),
      runTurn: new RunTurn({
        threads,
        agent,
        hub,
        decide,
        model,
        ids: get(ctx, TOKENS.Ids),
        clock,
        logger,
        feeds,
        lease: new TurnLease({ threads, feeds, clock, logger, settings }),
        waits,
        settings,
        meter: get(ctx, TOKENS.UsageMeter),
        slots: get(ctx, TOKENS.TurnSlots),
        attachments: get(ctx, TOKENS.MessageAttachments),
        again: new SentAgain({ threads, hub, mirrors, clock }),
        holders,
        ...optional('titler', get(ctx, TURN_TOKENS.ThreadTitler) ?? undefined),
      }),
      rejoinTurn: new RejoinTurn(threads, hub, mirrors, clock),
      stopTurn: new StopTurn(threads, stopper),
    };
  });
  // The automations module holds this instance's liveness mark from boot; without it, turns take it.
  bind(TOKENS.Background).toDynamicValue((ctx) => {
    const liveness = get(ctx, TOKENS.Config).automations ? null : engineLivenessOf(ctx);
    if (!liveness) return { start: async () => {}, stop: async () => {} };
    const logger = get(ctx, TOKENS.Logger);
    return {
      start: () =>
        liveness.hold(holderOf(ctx)).catch((error: unknown) =>
          logger.warn('this instance could not take its liveness mark; its turns are judged by their leases', {
            cause: error instanceof Error ? error.message : String(error),
          }),
        ),
      stop: () => liveness.release(),
    };
  });
  bind(TOKENS.SessionAdopters).toDynamicValue((ctx) => new ThreadsAdopter(get(ctx, TOKENS.ThreadBook)));
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) =>
    threadRoutes(get(ctx, TOKENS.ThreadUseCases), { keepAliveMs: get(ctx, TOKENS.Config).keepAliveSeconds * 1000 }),
  );
  bind(TOKENS.StatusBlocks).toDynamicValue((ctx) => {
    const model = get(ctx, TOKENS.Model);
    return { agent: answersTurns(model), model: model.source };
  });
});

/** What a turn asks before it starts (RunTurn), so `/status` and `porter doctor` say what a turn would do. */
function answersTurns(model: Model): boolean {
  try {
    model.assertConfigured();
    return true;
  } catch {
    return false;
  }
}
