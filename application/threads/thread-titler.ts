import type { Principal } from '../../domain/principal.js';
import type { Thread } from '../../domain/threads/thread.js';
import { TITLE_INSTRUCTIONS, titlePrompt } from '../../domain/threads/thread-title.js';
import { textOf, type UiMessage } from '../../domain/threads/ui-message.js';
import type { Logger } from '../../ports/logger.js';
import type { Model } from '../../ports/model.js';
import type { UsageMeter } from '../usage/usage-meter.js';
import type { LoadedThread, ThreadBook } from './thread-book.js';

/** What ThreadTitler is built from. */
export interface ThreadTitlerDeps {
  /** The model asked for the title: the host's `titleModel`, else the agent's own. */
  readonly model: Model;
  readonly threads: ThreadBook;
  readonly logger: Logger;
  /** The subject's `tokens` budget: the title's tokens count like a turn's. */
  readonly meter: UsageMeter;
  /** How long the title call may take before the first message's title stays. */
  readonly timeoutMs?: number;
}

/** What the turn's end knows already, each sparing the titler a read. */
export interface TitleKnown {
  /** The thread as the turn's end stored it, swapped first. */
  readonly released?: LoadedThread | undefined;
  /** The thread's messages as the turn left them: its first message and the answer to it. */
  readonly opening?: ReadonlyArray<UiMessage> | undefined;
}

/** A title is a few words: the call may write this many tokens. */
const TITLE_MAX_TOKENS = 24;
const TITLE_TIMEOUT_MS = 10_000;

/**
 * Names a thread after its first answer with one short model call (no tools, a bounded prompt, a
 * few output tokens). Whatever goes wrong (no tokens left, the model fails or is slow, an empty
 * answer) leaves the title the first message gave, quietly: a title is never worth a failed turn.
 * A title the person gave meanwhile is kept (Thread.titledGenerated).
 */
export class ThreadTitler {
  /** Titles being generated, by thread. */
  private readonly working = new Map<string, Promise<void>>();

  constructor(private readonly deps: ThreadTitlerDeps) {}

  /** Starts titling the thread in the background (after its first turn ended); it never rejects. */
  start(principal: Principal, threadId: string, known: TitleKnown = {}): void {
    const work = this.title(principal, threadId, known).finally(() => {
      if (this.working.get(threadId) === work) this.working.delete(threadId);
    });
    this.working.set(threadId, work);
  }

  /** Resolves once no title is being generated for the thread (at once when none is). */
  async titled(threadId: string): Promise<void> {
    await this.working.get(threadId);
  }

  /** Titles the thread from its first message and the answer to it. */
  async title(principal: Principal, threadId: string, known: TitleKnown = {}): Promise<void> {
    const { model, threads, meter, logger } = this.deps;
    const { released } = known;
    try {
      const messages = known.opening ?? (await threads.messagesOf(threadId));
      const question = messages.find((message) => message.role === 'user');
      const answer = messages.find((message) => message.role === 'assistant');
      if (!question || !answer) return;
      await meter.ensureLeft(principal, 'tokens');
      // Answered whole: nobody watches a title arrive, and one response costs a fraction of a stream.
      const said = await model.generateText({
        instructions: TITLE_INSTRUCTIONS,
        messages: [{ id: 'title', role: 'user', parts: [{ type: 'text', text: titlePrompt(textOf(question), textOf(answer)) }] }],
        maxOutputTokens: TITLE_MAX_TOKENS,
        signal: AbortSignal.timeout(this.deps.timeoutMs ?? TITLE_TIMEOUT_MS),
      });
      const tokens = said.totalTokens ?? 0;
      const text = said.reason === 'error' ? '' : said.text;
      if (tokens > 0) await meter.record(principal, 'tokens', tokens);
      const titled = (thread: Thread) => thread.titledGenerated(text);
      await (released ? threads.updateFrom(released, titled) : threads.update(threadId, titled));
    } catch (error) {
      logger.warn('a thread title could not be generated; the first message names it', {
        threadId,
        cause: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
