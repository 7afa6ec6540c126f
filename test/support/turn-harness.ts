import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { UiChunk } from '../../domain/threads/ui-chunk.js';
import type { ToolDefinition } from '../../ports/tool-registry.js';
import type { ThreadPrimitives } from '../../domain/threads/thread.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { TurnStream } from '../../ports/use-cases/threads.js';
import type { Clock } from '../../ports/clock.js';
import type { RecordSet, Store } from '../../ports/store.js';
import type { Limits } from '../../domain/usage/budget.js';
import { DEFAULT_ANSWER_SAVING, type AnswerSaving } from '../../domain/threads/answer-saving.js';
import type { TurnRecall } from '../../application/threads/turn-steps.js';
import type { ChatSettings } from '../../application/threads/chat-settings.js';
import { DEFAULT_TURN_SETTINGS, type TurnSettings } from '../../application/threads/turn-settings.js';
import { ThreadBook } from '../../application/threads/thread-book.js';
import { ThreadText } from '../../application/threads/thread-text.js';
import { ThreadsAdopter } from '../../application/threads/threads-adopter.js';
import { AiSdkModel } from '../../adapters/model/ai-sdk-model.js';
import { MemoryStore } from '../../adapters/store/memory/memory-store.js';
import { StaticToolRegistry } from '../../adapters/tools/static-tool-registry.js';
import type { PorterOptions } from '../../composition/config/porter-options.js';
import { testContainer } from '../../composition/containers/test-container.js';
import { get, TOKENS } from '../../composition/tokens.js';
import { GUARD_TOKENS } from '../../composition/modules/guard-tokens.js';
import { MEMORY_TOKENS } from '../../composition/modules/memory-tokens.js';
import { THREAD_TOKENS } from '../../composition/modules/threads-tokens.js';
import { USAGE_TOKENS } from '../../composition/modules/usage-tokens.js';
import { ada, guardOf } from './guard-harness.js';
import { RecordingLogger, SequentialIds } from './fakes.js';
import { ManualClock } from './manual-clock.js';

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
 * The conversation use cases over the in-memory store and the real guard: the production modules
 * (testContainer), with the test's clock, ids, tools and turn settings in place of theirs.
 * `instance()` composes them again over the same store, clock and ids: another instance of the
 * deployment, with its own turns in flight, reached by the first only through the store and its feeds.
 */
export function turnHarness(options: TurnHarnessOptions) {
  const clock = (options.clock ?? new ManualClock('2026-06-01T12:00:00.000Z')) as ManualClock;
  const store = options.store ?? new MemoryStore({ clock });
  const logger = new RecordingLogger();
  const ids = new SequentialIds();
  const settings: TurnSettings = { ...DEFAULT_TURN_SETTINGS, followCheckMs: 100, pollMs: 50, ...options.turns };
  const messages = options.messages;
  // One book over the wrapped messages for every instance, as the store under them is one.
  const threads = messages
    ? new ThreadBook(
        store.records<ThreadPrimitives>('threads'),
        messages(store.records<UiMessage>('thread-messages')),
        new ThreadText(store.textIndex!('threads')),
      )
    : null;
  const composed = (model: LanguageModelV4) =>
    testContainer(
      { options: configOf(options), store, clock, logger, model: new AiSdkModel(model as never, 'custom', 'test') },
      ({ replace }) => {
        replace(TOKENS.Ids, ids);
        replace(GUARD_TOKENS.ToolRegistry, new StaticToolRegistry(options.tools ?? []));
        replace(THREAD_TOKENS.TurnSettings, settings);
        replace(THREAD_TOKENS.ChatSettings, { toolOutputCap: 32_000, maxSteps: 8, ...options.settings });
        replace(THREAD_TOKENS.AnswerSaving, { ...DEFAULT_ANSWER_SAVING, ...options.answerSaving });
        if (options.graceMs !== undefined) {
          replace(THREAD_TOKENS.TurnGrace, { graceMs: options.graceMs, recheckMs: Math.max(20, Math.min(options.graceMs, 200)) });
        }
        if (options.recall) replace(MEMORY_TOKENS.TurnRecall, options.recall);
        if (threads) replace(THREAD_TOKENS.ThreadBook, threads);
      },
    );

  const instance = (model: LanguageModelV4 = options.model) => {
    const container = composed(model);
    const useCases = get(container, THREAD_TOKENS.ThreadUseCases);
    const titler = get(container, THREAD_TOKENS.ThreadTitler);
    const runTurn = useCases.runTurn;
    const start = (threadId: string, text: string, principal = ada) =>
      runTurn.execute({ principal, threadId, message: { id: '', role: 'user', parts: [{ type: 'text', text }] } });
    return {
      container,
      hub: get(container, THREAD_TOKENS.TurnHub),
      mirrors: get(container, THREAD_TOKENS.TurnMirrors),
      /** Where readers on every instance are known (null unless `graceMs` opts into giving up unread turns). */
      readers: get(container, THREAD_TOKENS.TurnReaders),
      runTurn,
      /** Resolves once no title is being generated for the thread (the title follows the first turn). */
      titled: (threadId: string) => titler?.titled(threadId) ?? Promise.resolve(),
      rejoin: useCases.rejoinTurn,
      stop: useCases.stopTurn,
      deleteThread: useCases.deleteThread,
      showVersion: useCases.showVersion,
      /** Starts ada's turn with `text` and hands back its stream, unread. */
      start,
      /** Ada's turn with `text`, read to its end. */
      async say(threadId: string, text: string) {
        return collect(await start(threadId, text));
      },
    };
  };

  const first = instance();
  const useCases = get(first.container, THREAD_TOKENS.ThreadUseCases);
  return {
    ...guardOf(first.container, { clock, store, logger }),
    ...first,
    threads: get(first.container, THREAD_TOKENS.ThreadBook),
    feeds: get(first.container, THREAD_TOKENS.TurnFeeds),
    settings,
    meter: options.limits ? get(first.container, USAGE_TOKENS.UsageMeter) : undefined,
    instance,
    createThread: useCases.createThread,
    getThread: useCases.getThread,
    renameThread: useCases.renameThread,
    searchThreads: useCases.searchThreads,
    adopter: new ThreadsAdopter(get(first.container, THREAD_TOKENS.ThreadBook)),
  };
}

/** The harness's options that are the deployment's, as a host passes them. */
function configOf(options: TurnHarnessOptions): PorterOptions {
  return {
    apps: false,
    automations: false,
    memory: false,
    knowledge: false,
    titleModel: options.titleModel ?? false,
    limits: { ...options.limits, anonymousPerAddress: options.perAddress ?? false },
    maxTurnsInFlight: options.maxTurnsInFlight ?? false,
  };
}

export async function collect(stream: TurnStream): Promise<UiChunk[]> {
  const chunks: UiChunk[] = [];
  for await (const chunk of stream.chunks) chunks.push(chunk);
  return chunks;
}
