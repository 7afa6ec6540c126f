import { ContainerModule } from 'inversify';
import { TOKENS } from '../tokens.js';
import type { PorterConfig } from '../config/config-schema.js';
import type { Store } from '../../ports/store.js';
import type { Model } from '../../ports/model.js';
import type { Logger } from '../../ports/logger.js';
import type { ThreadUseCases } from '../../ports/use-cases/threads.js';
import type { StatusBlocks } from '../../ports/use-cases/system.js';
import type { GuardUseCases } from '../../ports/use-cases/guard.js';
import type { ThreadPrimitives } from '../../domain/threads/thread.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import { ThreadBook } from '../../application/threads/thread-book.js';
import { TurnHub } from '../../application/threads/turn-hub.js';
import { AgentTurn } from '../../application/threads/agent-turn.js';
import { RunTurn } from '../../application/threads/run-turn.js';
import { CreateThread, DeleteThread, GetThread, ListThreads } from '../../application/threads/thread-queries.js';
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
import type { Clock } from '../../ports/clock.js';
import { ThreadsAdopter } from '../../application/threads/threads-adopter.js';
import { threadRoutes } from '../../adapters/http/routes/thread-routes.js';
import type { WireRoutes } from '../../adapters/http/wire-routes.js';

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
export const threadsModule = new ContainerModule(({ bind }) => {
  bind(TOKENS.ThreadBook)
    .toDynamicValue((ctx) => {
      const store = ctx.get<Store>(TOKENS.Store);
      return new ThreadBook(store.records<ThreadPrimitives>('threads'), store.records<UiMessage>('thread-messages'));
    })
    .inSingletonScope();
  bind(TOKENS.TurnHub)
    .toDynamicValue((ctx) => new TurnHub(ctx.get<PorterConfig>(TOKENS.Config).turnGraceSeconds * 1000))
    .inSingletonScope();
  // One agent loop serves chat turns and automation runs alike.
  bind(TOKENS.AgentTurn)
    .toDynamicValue((ctx) => {
      const config = ctx.get<PorterConfig>(TOKENS.Config);
      return new AgentTurn(
        ctx.get<Model | null>(TOKENS.Model),
        ctx.get(TOKENS.ToolRegistry),
        ctx.get(TOKENS.GuardCall),
        ctx.get(TOKENS.ExecuteApproved),
        ctx.get(TOKENS.ApprovalBook),
        ctx.get(TOKENS.ThreadBook),
        {
          toolOutputCap: config.toolOutputCap,
          maxSteps: config.maxSteps,
          ...(config.historyWindow !== undefined ? { historyWindow: config.historyWindow } : {}),
          ...(config.maxOutputTokens !== undefined ? { maxOutputTokens: config.maxOutputTokens } : {}),
          ...(config.instructions !== undefined ? { instructions: config.instructions } : {}),
        },
        ctx.get(TOKENS.Ids),
        ctx.get(TOKENS.Logger),
        ctx.get(TOKENS.Clock),
      );
    })
    .inSingletonScope();
  bind<ThreadUseCases>(TOKENS.ThreadUseCases)
    .toDynamicValue((ctx) => {
      const threads = ctx.get<ThreadBook>(TOKENS.ThreadBook);
      const hub = ctx.get<TurnHub>(TOKENS.TurnHub);
      const model = ctx.get<Model | null>(TOKENS.Model);
      const agent = ctx.get<AgentTurn>(TOKENS.AgentTurn);
      const decide = ctx.get<GuardUseCases>(TOKENS.GuardUseCases).decideApproval;
      const config = ctx.get<PorterConfig>(TOKENS.Config);
      const clock = ctx.get<Clock>(TOKENS.Clock);
      const logger = ctx.get<Logger>(TOKENS.Logger);
      const settings: TurnSettings = { ...DEFAULT_TURN_SETTINGS, concurrentTurns: config.concurrentTurns };
      const feeds = turnFeeds(ctx.get<Store>(TOKENS.Store), clock);
      const waits = new ThreadWaits(feeds.signals, settings.pollMs);
      const stopper = new TurnStopper(threads, hub, feeds, waits, clock, settings);
      return {
        createThread: new CreateThread(threads, ctx.get(TOKENS.Ids), clock),
        listThreads: new ListThreads(threads),
        getThread: new GetThread(threads),
        deleteThread: new DeleteThread(threads, hub, stopper),
        runTurn: new RunTurn({
          threads,
          agent,
          hub,
          decide,
          model,
          ids: ctx.get(TOKENS.Ids),
          clock,
          logger,
          feeds,
          lease: new TurnLease(threads, feeds, clock, logger, settings),
          waits,
          settings,
        }),
        rejoinTurn: new RejoinTurn(threads, hub, new TurnMirrors(feeds, threads, clock, logger, settings), clock),
        stopTurn: new StopTurn(threads, stopper),
      };
    })
    .inSingletonScope();
  bind(TOKENS.SessionAdopters).toDynamicValue((ctx) => new ThreadsAdopter(ctx.get(TOKENS.ThreadBook)));
  bind<WireRoutes>(TOKENS.WireRoutes).toDynamicValue((ctx) =>
    threadRoutes(ctx.get(TOKENS.ThreadUseCases), { keepAliveMs: ctx.get<PorterConfig>(TOKENS.Config).keepAliveSeconds * 1000 }),
  );
  bind<Partial<StatusBlocks>>(TOKENS.StatusBlocks).toDynamicValue((ctx) => {
    const model = ctx.get<Model | null>(TOKENS.Model);
    return { agent: model !== null, model: model?.source ?? 'ladder' };
  });
});
