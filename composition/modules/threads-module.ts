import { get, getOptional, porterModule, recordsOf, TOKENS, type Resolver } from '../tokens.js';
import { DELETION_TOKENS } from './deletions-tokens.js';
import { FILE_TOKENS } from './files-tokens.js';
import { GUARD_TOKENS } from './guard-tokens.js';
import { MEMORY_TOKENS } from './memory-tokens.js';
import { THREAD_TOKENS } from './threads-tokens.js';
import { USAGE_TOKENS } from './usage-tokens.js';
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
import { DEFAULT_ANSWER_SAVING } from '../../domain/threads/answer-saving.js';
import { engineLivenessOf, holderOf, livenessOf } from './instance-liveness.js';
import { DEFAULT_TURN_SETTINGS, TURN_CHUNKS_FEED, TURN_SIGNALS_FEED, type TurnFeeds } from '../../application/threads/turn-settings.js';
import { MemoryFeeds } from '../../adapters/store/memory/memory-feeds.js';
import { ThreadsAdopter } from '../../application/threads/threads-adopter.js';
import type { Model } from '../../ports/model.js';
import { RenameThread } from '../../application/threads/rename-thread.js';
import { SearchThreads } from '../../application/threads/search-threads.js';
import { togetherOn } from '../../application/shared/together.js';
import { THREAD_TEXT_COLLECTION, ThreadText } from '../../application/threads/thread-text.js';
import { ThreadTextBackfill, type BackfillMark } from '../../application/threads/thread-text-backfill.js';
import { storeTextIndex } from '../store-text-index.js';
import { threadRoutes } from '../../adapters/http/routes/thread-routes.js';
import { ThreadTitler } from '../../application/threads/thread-titler.js';
import { AiSdkModel } from '../../adapters/model/ai-sdk-model.js';
import { defined } from '../../domain/defined.js';

/** What the agent loop is built from (typed-wiring.typecheck.ts swaps two of them to prove tsc refuses it). */
export function agentTurnDeps(ctx: Resolver): AgentTurnDeps {
  return {
    model: get(ctx, TOKENS.Model),
    tools: get(ctx, GUARD_TOKENS.ToolRegistry),
    guard: get(ctx, GUARD_TOKENS.GuardCall),
    executeApproved: get(ctx, GUARD_TOKENS.ExecuteApproved),
    approvals: get(ctx, GUARD_TOKENS.ApprovalBook),
    threads: get(ctx, THREAD_TOKENS.ThreadBook),
    settings: get(ctx, THREAD_TOKENS.ChatSettings),
    ids: get(ctx, TOKENS.Ids),
    logger: get(ctx, TOKENS.Logger),
    clock: get(ctx, TOKENS.Clock),
    meter: get(ctx, USAGE_TOKENS.UsageMeter),
    ...optional('recall', getOptional(ctx, MEMORY_TOKENS.TurnRecall)),
    attachments: get(ctx, FILE_TOKENS.ModelAttachments),
    kept: new KeptAnswers(get(ctx, THREAD_TOKENS.AnswerSaving), get(ctx, TOKENS.Logger)),
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
    meter: get(ctx, USAGE_TOKENS.UsageMeter),
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
  bind.singleton(THREAD_TOKENS.TurnSettings, (ctx) => ({
    ...DEFAULT_TURN_SETTINGS,
    concurrentTurns: get(ctx, TOKENS.Config).concurrentTurns,
  }));
  bind.singleton(THREAD_TOKENS.ChatSettings, (ctx) => {
    const config = get(ctx, TOKENS.Config);
    return {
      toolOutputCap: config.toolOutputCap,
      maxSteps: config.maxSteps,
      ...defined({ historyWindow: config.historyWindow, maxOutputTokens: config.maxOutputTokens, instructions: config.instructions }),
    };
  });
  bind(THREAD_TOKENS.AnswerSaving).toConstantValue(DEFAULT_ANSWER_SAVING);
  bind.singleton(THREAD_TOKENS.TurnGrace, (ctx) => {
    const graceSeconds = get(ctx, TOKENS.Config).turnGraceSeconds;
    if (graceSeconds === undefined) return null;
    const graceMs = graceSeconds * 1000;
    // While readers elsewhere follow a turn nobody reads here, the store is asked again at most once a second.
    return { graceMs, recheckMs: Math.max(1_000, Math.min(graceMs, DEFAULT_TURN_SETTINGS.leaseMs / 3)) };
  });
  bind.singleton(THREAD_TOKENS.TurnFeeds, (ctx) => turnFeeds(get(ctx, TOKENS.Store), get(ctx, TOKENS.Clock)));
  bind.singleton(
    THREAD_TOKENS.TurnMirrors,
    (ctx) =>
      new TurnMirrors({
        feeds: get(ctx, THREAD_TOKENS.TurnFeeds),
        threads: get(ctx, THREAD_TOKENS.ThreadBook),
        clock: get(ctx, TOKENS.Clock),
        logger: get(ctx, TOKENS.Logger),
        settings: get(ctx, THREAD_TOKENS.TurnSettings),
        readers: get(ctx, THREAD_TOKENS.TurnReaders),
      }),
  );
  bind.singleton(THREAD_TOKENS.ThreadTitler, (ctx) => titlerOf(ctx, get(ctx, THREAD_TOKENS.ThreadBook), get(ctx, TOKENS.Model)));
  bind.singleton(
    THREAD_TOKENS.ThreadBook,
    (ctx) =>
      new ThreadBook(
        recordsOf<ThreadPrimitives>(ctx, 'threads'),
        recordsOf<UiMessage>(ctx, 'thread-messages'),
        new ThreadText(storeTextIndex(get(ctx, TOKENS.Store), THREAD_TEXT_COLLECTION)),
        togetherOn(get(ctx, TOKENS.Store)),
      ),
  );
  bind.singleton(THREAD_TOKENS.TurnReaders, (ctx) => {
    if (get(ctx, THREAD_TOKENS.TurnGrace) === null) return null;
    return new TurnReaders({
      marks: recordsOf<ReaderMark>(ctx, 'turn-readers'),
      ids: get(ctx, TOKENS.Ids),
      clock: get(ctx, TOKENS.Clock),
      logger: get(ctx, TOKENS.Logger),
      leaseMs: get(ctx, THREAD_TOKENS.TurnSettings).leaseMs,
    });
  });
  bind.singleton(THREAD_TOKENS.TurnHub, (ctx) => {
    const grace = get(ctx, THREAD_TOKENS.TurnGrace);
    const readers = get(ctx, THREAD_TOKENS.TurnReaders);
    // Absent, every turn runs to its end; set, one nobody reads on any instance is given up after it.
    if (!grace || !readers) return new TurnHub();
    return new TurnHub({ ...grace, readers });
  });
  // One agent loop serves chat turns and automation runs alike.
  bind.singleton(THREAD_TOKENS.AgentTurn, (ctx): AgentTurn => new TracedAgentTurn(agentTurnDeps(ctx), get(ctx, TOKENS.Telemetry)));
  bind.singleton(THREAD_TOKENS.ThreadUseCases, (ctx) => {
    const threads = get(ctx, THREAD_TOKENS.ThreadBook);
    const hub = get(ctx, THREAD_TOKENS.TurnHub);
    const model = get(ctx, TOKENS.Model);
    const agent = get(ctx, THREAD_TOKENS.AgentTurn);
    const decide = get(ctx, GUARD_TOKENS.GuardUseCases).decideApproval;
    const clock = get(ctx, TOKENS.Clock);
    const logger = get(ctx, TOKENS.Logger);
    const settings = get(ctx, THREAD_TOKENS.TurnSettings);
    const feeds = get(ctx, THREAD_TOKENS.TurnFeeds);
    const waits = new ThreadWaits(feeds.signals, settings.pollMs);
    const stopper = new TurnStopper({ threads, hub, feeds, waits, clock, settings });
    const holders = new TurnHolders(livenessOf(ctx), holderOf(ctx), logger);
    const mirrors = get(ctx, THREAD_TOKENS.TurnMirrors);
    return {
      createThread: new CreateThread(threads, get(ctx, TOKENS.Ids), clock),
      listThreads: new ListThreads(threads, get(ctx, DELETION_TOKENS.PendingDeletions)),
      searchThreads: new SearchThreads(
        threads,
        new ThreadText(storeTextIndex(get(ctx, TOKENS.Store), THREAD_TEXT_COLLECTION)),
        new ThreadTextBackfill(threads, recordsOf<BackfillMark>(ctx, 'thread-text-backfills'), clock),
      ),
      getThread: new GetThread(threads, clock, holders),
      showVersion: new ShowVersion({ threads, hub, ids: get(ctx, TOKENS.Ids), clock, leaseMs: settings.leaseMs }),
      renameThread: new RenameThread(threads, clock),
      deleteThread: new DeleteThread(threads, hub, stopper, get(ctx, FILE_TOKENS.ThreadFiles)),
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
        meter: get(ctx, USAGE_TOKENS.UsageMeter),
        slots: get(ctx, USAGE_TOKENS.TurnSlots),
        attachments: get(ctx, FILE_TOKENS.MessageAttachments),
        again: new SentAgain({ threads, hub, mirrors, clock }),
        holders,
        together: togetherOn(get(ctx, TOKENS.Store)),
        ...optional('recall', getOptional(ctx, MEMORY_TOKENS.TurnRecall)),
        ...optional('titler', get(ctx, THREAD_TOKENS.ThreadTitler) ?? undefined),
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
  bind(TOKENS.SessionAdopters).toDynamicValue((ctx) => new ThreadsAdopter(get(ctx, THREAD_TOKENS.ThreadBook)));
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) =>
    threadRoutes(get(ctx, THREAD_TOKENS.ThreadUseCases), { keepAliveMs: get(ctx, TOKENS.Config).keepAliveSeconds * 1000 }),
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
