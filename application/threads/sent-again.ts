import { answerTo, replayOf, sameAsSent } from '../../domain/threads/sent-message.js';
import type { UiChunk } from '../../domain/threads/ui-chunk.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { Thread } from '../../domain/threads/thread.js';
import type { Clock } from '../../ports/clock.js';
import type { TurnStream } from '../../ports/use-cases/threads.js';
import type { ThreadBook } from './thread-book.js';
import type { TurnHub } from './turn-hub.js';
import { DIED_MID_TURN, type TurnMirrors } from './turn-mirrors.js';

/** What SentAgain is built from. */
export interface SentAgainDeps {
  readonly threads: ThreadBook;
  readonly hub: TurnHub;
  readonly mirrors: TurnMirrors;
  readonly clock: Clock;
}

/**
 * A person's message that arrives again under the id the client gave it (domain/threads/sent-message.ts):
 * it joins the turn carrying it, wherever that runs, or gets the answer that turn stored, replayed
 * as a stream. Race-safe because a message is only ever stored by the turn holding its thread, and
 * that turn checks first (`whileHeld`) while it holds it.
 */
export class SentAgain {
  constructor(private readonly deps: SentAgainDeps) {}

  /**
   * The turn carrying the message (sent as `sent`), joined, or its stored answer; null when the
   * message is new here. Another message under an id already used is a conflict.
   */
  async answer(threadId: string, sent: string, message: UiMessage): Promise<TurnStream | null> {
    const loaded = await this.deps.threads.find(threadId);
    const carrying = loaded?.thread.turnCarrying(sent, this.deps.clock.now().toISOString());
    if (!carrying) return this.storedAnswer(threadId, sent, message);
    const stored = await this.deps.threads.sentMessage(threadId, sent);
    if (stored) sameAsSent(stored, message);
    return this.deps.hub.find(threadId)?.read(true) ?? this.deps.mirrors.read(threadId, carrying.id);
  }

  /**
   * For the turn that took the thread, before it stores its message: a message stored before under
   * this id (only ever by a turn holding the thread) is answered from the store, and the thread let
   * go (`release`); first counted again when the turn before died without saying what it added.
   * Null: the message is new.
   */
  async whileHeld(held: {
    readonly before: Thread;
    readonly abandoned: boolean;
    readonly sent: string | null;
    readonly message: UiMessage | undefined;
    /** The message stored under `sent`, looked up already (null: none); absent, it is looked up here. */
    readonly found?: Promise<UiMessage | null>;
    readonly release: () => Promise<void>;
  }): Promise<TurnStream | null> {
    const { before, abandoned, sent, message } = held;
    if (!sent || !message) return null;
    // The turn carrying this very message lost its instance: what it kept is replayed as cut short.
    const cut = abandoned && before.toPrimitives().activeTurn?.sent === sent ? DIED_MID_TURN : undefined;
    const replay = await this.storedAnswer(before.id, sent, message, cut, await held.found);
    if (!replay) return null;
    if (abandoned) {
      const count = (await this.deps.threads.messagesOf(before.id)).length;
      await this.deps.threads.update(before.id, (thread) => thread.recounted(count));
    }
    await held.release();
    return replay;
  }

  /**
   * The stored answer to the message, replayed; null when the message was never stored. `cut`:
   * the turn that carried it ended with its instance, said at the end of the replay. `found`: the
   * message stored under `sent`, looked up already.
   */
  async storedAnswer(
    threadId: string,
    sent: string,
    message: UiMessage,
    cut?: string,
    found?: UiMessage | null,
  ): Promise<TurnStream | null> {
    const stored = found === undefined ? await this.deps.threads.sentMessage(threadId, sent) : found;
    if (!stored) return null;
    sameAsSent(stored, message);
    const chunks = replayOf(answerTo(await this.deps.threads.messagesOf(threadId), stored.id), cut);
    return { threadId, chunks: replayed(chunks), detach: () => undefined };
  }
}

async function* replayed(chunks: ReadonlyArray<UiChunk>): AsyncGenerator<UiChunk> {
  yield* chunks;
}
