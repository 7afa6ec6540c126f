import { ContainerModule } from 'inversify';
import { TOKENS } from '../tokens.js';
import type { PorterConfig } from '../config/config-schema.js';
import type { Store } from '../../ports/store.js';
import type { Model } from '../../ports/model.js';
import type { ThreadUseCases } from '../../ports/use-cases/threads.js';
import type { StatusBlocks } from '../../ports/use-cases/system.js';
import type { GuardUseCases } from '../../ports/use-cases/guard.js';
import type { ThreadPrimitives } from '../../domain/threads/thread.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import { ThreadBook } from '../../application/threads/thread-book.js';
import { TurnHub } from '../../application/threads/turn-hub.js';
import { AgentTurn } from '../../application/threads/agent-turn.js';
import { RunTurn } from '../../application/threads/run-turn.js';
import { CreateThread, DeleteThread, GetThread, ListThreads, RejoinTurn, StopTurn } from '../../application/threads/thread-queries.js';
import { ThreadsAdopter } from '../../application/threads/threads-adopter.js';
import { RenameThread } from '../../application/threads/rename-thread.js';
import { SearchThreads } from '../../application/threads/search-threads.js';
import { threadRoutes } from '../../adapters/http/routes/thread-routes.js';
import type { WireRoutes } from '../../adapters/http/wire-routes.js';

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
      return {
        createThread: new CreateThread(threads, ctx.get(TOKENS.Ids), ctx.get(TOKENS.Clock)),
        listThreads: new ListThreads(threads),
        searchThreads: new SearchThreads(threads),
        getThread: new GetThread(threads),
        renameThread: new RenameThread(threads, ctx.get(TOKENS.Clock)),
        deleteThread: new DeleteThread(threads, hub),
        runTurn: new RunTurn(threads, agent, hub, decide, model, ctx.get(TOKENS.Ids), ctx.get(TOKENS.Clock), ctx.get(TOKENS.Logger)),
        rejoinTurn: new RejoinTurn(threads, hub),
        stopTurn: new StopTurn(threads, hub),
      };
    })
    .inSingletonScope();
  bind(TOKENS.SessionAdopters).toDynamicValue((ctx) => new ThreadsAdopter(ctx.get(TOKENS.ThreadBook)));
  bind<WireRoutes>(TOKENS.WireRoutes).toDynamicValue((ctx) => threadRoutes(ctx.get(TOKENS.ThreadUseCases)));
  bind<Partial<StatusBlocks>>(TOKENS.StatusBlocks).toDynamicValue((ctx) => {
    const model = ctx.get<Model | null>(TOKENS.Model);
    return { agent: model !== null, model: model?.source ?? 'ladder' };
  });
});
