import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { UiChunk } from '../../domain/threads/ui-chunk.js';
import type { ToolDefinition } from '../../ports/tool-registry.js';
import type { ThreadPrimitives } from '../../domain/threads/thread.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { TurnStream } from '../../ports/use-cases/threads.js';
import { AiSdkModel } from '../../adapters/model/ai-sdk-model.js';
import { StaticToolRegistry } from '../../adapters/tools/static-tool-registry.js';
import { ThreadBook } from '../../application/threads/thread-book.js';
import { TurnHub } from '../../application/threads/turn-hub.js';
import { AgentTurn } from '../../application/threads/agent-turn.js';
import { RunTurn } from '../../application/threads/run-turn.js';
import { CreateThread } from '../../application/threads/create-thread.js';
import { GetThread } from '../../application/threads/get-thread.js';
import { RejoinTurn } from '../../application/threads/rejoin-turn.js';
import { StopTurn } from '../../application/threads/stop-turn.js';
import { ApprovalBook } from '../../application/guard/approval-book.js';
import type { ApprovalPrimitives } from '../../domain/guard/approval.js';
import type { ChatSettings } from '../../application/threads/chat-settings.js';
import { ada, guardHarness } from './guard-harness.js';
import { SequentialIds } from './fakes.js';

/** The conversation use cases over the in-memory store and the real guard. */
export function turnHarness(options: {
  model: LanguageModelV3;
  tools?: ToolDefinition[];
  settings?: Partial<ChatSettings>;
  graceMs?: number;
}) {
  const guard = guardHarness({ tools: options.tools ?? [] });
  const threads = new ThreadBook(guard.store.records<ThreadPrimitives>('threads'), guard.store.records<UiMessage>('thread-messages'));
  const hub = new TurnHub(options.graceMs);
  const model = new AiSdkModel(options.model as never, 'custom', 'test');
  const ids = new SequentialIds();
  const agent = new AgentTurn({
    model,
    tools: new StaticToolRegistry(options.tools ?? []),
    guard: guard.guard,
    executeApproved: guard.executeApproved,
    approvals: new ApprovalBook(guard.store.records<ApprovalPrimitives>('approvals')),
    threads,
    settings: { toolOutputCap: 32_000, maxSteps: 8, ...options.settings },
    ids,
    logger: guard.logger,
    clock: guard.clock,
  });
  const runTurn = new RunTurn({ threads, agent, hub, decide: guard.decide, model, ids, clock: guard.clock, logger: guard.logger });
  /** Starts ada's turn with `text` and hands back its stream, unread. */
  const start = (threadId: string, text: string) =>
    runTurn.execute({ principal: ada, threadId, message: { id: '', role: 'user', parts: [{ type: 'text', text }] } });
  return {
    ...guard,
    threads,
    hub,
    runTurn,
    createThread: new CreateThread(threads, ids, guard.clock),
    getThread: new GetThread(threads),
    rejoin: new RejoinTurn(threads, hub),
    stop: new StopTurn(threads, hub),
    start,
    /** Ada's turn with `text`, read to its end. */
    async say(threadId: string, text: string) {
      return collect(await start(threadId, text));
    },
  };
}

export async function collect(stream: TurnStream): Promise<UiChunk[]> {
  const chunks: UiChunk[] = [];
  for await (const chunk of stream.chunks) chunks.push(chunk);
  return chunks;
}
