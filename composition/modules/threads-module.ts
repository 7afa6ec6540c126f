import { get, porterModule, recordsOf, TOKENS, type Resolver } from '../tokens.js';
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
import { ListThreads } from '../../application/threads/list-threads.js';
import { RejoinTurn } from '../../application/threads/rejoin-turn.js';
import { StopTurn } from '../../application/threads/stop-turn.js';
import { ThreadWaits } from '../../application/threads/thread-waits.js';
import { TurnLease } from '../../application/threads/turn-lease.js';
import { TurnMirrors } from '../../application/threads/turn-mirrors.js';
import { TurnStopper } from '../../application/threads/turn-stopper.js';
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
import { threadRoutes } from '../../adapters/http/routes/thread-routes.js';

/** What the agent loop is built from (typed-wiring.typecheck.ts swaps two of them to prove tsc refuses it). */
export function agentTurnDeps(ctx: Resolver): AgentTurnDeps {
  const config = get(ctx, TOKENS.Config);
  return {
    model: get(ctx, TOKENS.Model),
    tools: get(ctx, TOKENS.ToolRegistry),
    guard: get(ctx, TOKENS.GuardCall),
    executeApproved: get(ctx, TOKENS.ExecuteApproved),
    approvals: get(ctx, TOKENS.ApprovalBook),
    threads: get(ctx, TOKENS.ThreadBook),
    settings: {
      toolOutputCap: config.toolOutputCap,
      maxSteps: config.maxSteps,
      ...(config.historyWindow !== undefined ? { historyWindow: config.historyWindow } : {}),
      ...(config.maxOutputTokens !== undefined ? { maxOutputTokens: config.maxOutputTokens } : {}),
      ...(config.instructions !== undefined ? { instructions: config.instructions } : {}),
    },
    ids: get(ctx, TOKENS.Ids),
    logger: get(ctx, TOKENS.Logger),
    clock: get(ctx, TOKENS.Clock),
    meter: get(ctx, TOKENS.UsageMeter),
  };
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
  bind.singleton(
    TOKENS.ThreadBook,
    (ctx) => new ThreadBook(recordsOf<ThreadPrimitives>(ctx, 'threads'), recordsOf<UiMessage>(ctx, 'thread-messages')),
  );
  bind.singleton(TOKENS.TurnHub, (ctx) => new TurnHub(get(ctx, TOKENS.Config).turnGraceSeconds * 1000));
  // One agent loop serves chat turns and automation runs alike.
  bind.singleton(TOKENS.AgentTurn, (ctx): AgentTurn => new TracedAgentTurn(agentTurnDeps(ctx), get(ctx, TOKENS.Telemetry)));
  bind.singleton(TOKENS.ThreadUseCases, (ctx) => {
    const threads = get(ctx, TOKENS.ThreadBook);
    const hub = get(ctx, TOKENS.TurnHub);
    const model = get(ctx, TOKENS.Model);
    const agent = get(ctx, TOKENS.AgentTurn);
    const decide = get(ctx, TOKENS.GuardUseCases).decideApproval;
    const config = get(ctx, TOKENS.Config);
    const clock = get(ctx, TOKENS.Clock);
    const logger = get(ctx, TOKENS.Logger);
    const settings: TurnSettings = { ...DEFAULT_TURN_SETTINGS, concurrentTurns: config.concurrentTurns };
    const feeds = turnFeeds(get(ctx, TOKENS.Store), clock);
    const waits = new ThreadWaits(feeds.signals, settings.pollMs);
    const stopper = new TurnStopper({ threads, hub, feeds, waits, clock, settings });
    return {
      createThread: new CreateThread(threads, get(ctx, TOKENS.Ids), clock),
      listThreads: new ListThreads(threads),
      searchThreads: new SearchThreads(threads),
      getThread: new GetThread(threads),
      renameThread: new RenameThread(threads, clock),
      deleteThread: new DeleteThread(threads, hub, stopper),
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
      }),
      rejoinTurn: new RejoinTurn(threads, hub, new TurnMirrors({ feeds, threads, clock, logger, settings }), clock),
      stopTurn: new StopTurn(threads, stopper),
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
