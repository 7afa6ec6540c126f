import type { UiMessage } from '../../domain/threads/ui-message.js';
import { rewound, type Rewind } from '../../domain/threads/rewind.js';
import { interruptionOf, uninterrupted } from '../../domain/threads/interruption.js';
import type { Ids } from '../../ports/ids.js';
import type { TurnRequest } from '../../ports/use-cases/threads.js';
import type { LoadedThread, ThreadBook } from './thread-book.js';
import { defined } from '../../domain/defined.js';

/**
 * A thread a turn took: the thread as it was, as the turn's start stored it, whether the turn
 * before it was left by a dead instance, and the client's id of the message it carries.
 */
export interface TakenThread {
  readonly loaded: LoadedThread;
  /** The thread as the turn's start stored it: the revision its next write is checked against. */
  readonly held: LoadedThread;
  readonly abandoned: string | null;
  readonly sent: string | null;
}

/** The thread's messages made ready for a turn, and what its settlement needs to know of them. */
export interface ReadyMessages {
  /** The thread as the model is shown it, oldest first, the person's new message included. */
  readonly messages: UiMessage[];
  /** The assistant message the turn carries on, or null for a new answer. */
  readonly continuing: UiMessage | null;
  /** The messages the turn adds to the thread when its answer is saved. */
  readonly added: number;
  /** The thread as the turn last stored it, while nothing else is known to have written it since. */
  readonly latest: LoadedThread | null;
  /** The thread's first answer: the thread is titled after it. */
  readonly firstAnswer: boolean;
}

/**
 * A held thread's messages made ready for the turn that holds it: counted again after a dead
 * instance's turn, rewound (what is replaced kept as an earlier version), and then the person's
 * new message stored under the client's id, or, for a turn without one, the answer it carries on
 * found and a retried message unmarked.
 */
export class TurnMessages {
  constructor(
    private readonly threads: ThreadBook,
    private readonly ids: Ids,
  ) {}

  /** `history`: the thread's messages, read once the thread was held; absent, they are read here. */
  async ready(request: TurnRequest, taken: TakenThread, history?: UiMessage[]): Promise<ReadyMessages> {
    const { threads } = this;
    const { threadId } = request;
    const { loaded, abandoned } = taken;
    // The thread as this turn last stored it, while nothing else is known to have written it since.
    let latest: LoadedThread | null = taken.held;
    let messages = history ?? (await threads.messagesOf(threadId));
    // The dead instance never said what its turn added: count again.
    if (abandoned) {
      const count = messages.length;
      await threads.update(threadId, (thread) => thread.recounted(count));
      latest = null;
    }
    let added = 0;
    if (request.rewind) {
      const { kept, removed } = rewound(messages, await this.storedRewind(threadId, request.rewind, messages));
      // What the turn replaces is kept as an earlier version, one switch away.
      await threads.shelveMessages(threadId, removed);
      if (removed.length > 0) {
        await threads.update(threadId, (thread) => thread.keptVersion(kept.at(-1)?.id ?? '', removed));
        latest = null;
      }
      messages = kept;
      added -= removed.length;
    }
    let continuing: UiMessage | null = null;
    let firstAnswer = false;
    if (request.message) {
      // A new message is not interrupted, whatever the client's copy says.
      const message: UiMessage = uninterrupted({
        id: this.ids.mint('message'),
        role: 'user',
        parts: request.message.parts,
        ...defined({ metadata: request.message.metadata }),
      });
      // An edited message keeps the client's id as its label, so a later edit of it finds it again.
      const label = taken.sent ?? (request.rewind?.kind === 'message' && request.message.id ? request.message.id : undefined);
      const opening = loaded.thread.toPrimitives().messageCount === 0;
      // A first message titled the thread already, in the swap that took it (TurnAdmission).
      await threads.putMessage(threadId, message, label, latest?.thread.owner);
      messages.push(message);
      added += 1;
      if (opening) firstAnswer = true;
    } else {
      const last = messages[messages.length - 1];
      continuing = last?.role === 'assistant' && !request.rewind ? last : null;
      // The person's message answered again (a Retry): this turn answers it, so it is no longer interrupted.
      if (last?.role === 'user' && interruptionOf(last)) {
        messages[messages.length - 1] = uninterrupted(last);
        await threads.restate(messages[messages.length - 1]!);
      }
    }
    if (!continuing) added += 1;
    return { messages, continuing, added, latest, firstAnswer };
  }

  /**
   * The rewind naming the stored message the client meant: the chrome knows a message it sent (or
   * edited) in this page by its own id, which the thread keeps as that message's label.
   */
  private async storedRewind(threadId: string, rewind: Rewind, messages: ReadonlyArray<UiMessage>): Promise<Rewind> {
    const { messageId } = rewind;
    if (rewind.kind !== 'message' || !messageId || messages.some((message) => message.id === messageId)) return rewind;
    const stored = await this.threads.sentMessage(threadId, messageId);
    return stored ? { ...rewind, messageId: stored.id } : rewind;
  }
}
