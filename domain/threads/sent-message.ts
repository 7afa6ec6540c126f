import { Conflict } from '../errors.js';
import { chunksRebuilding, type UiChunk } from './ui-chunk.js';
import type { UiMessage } from './ui-message.js';

/**
 * A person's message is stored once per id the client gave it (every AI SDK message carries one):
 * the same message sent again (a client's retry after a dropped connection or a balancer's 502)
 * joins the turn that carries it, or is answered with what that turn answered. The id is the
 * client's, so it stays beside the server's own id, never instead of it. A message without one,
 * or one that replaces the last message (edit and resend keeps the edited message's id), is new.
 */
export function sentIdOf(message: UiMessage | undefined, replacing: boolean): string | null {
  if (!message || replacing) return null;
  return message.id.length > 0 ? message.id : null;
}

/** A message under an id the client already gave another message: a client's bug, never a retry. */
export class IdSentBefore extends Conflict {
  constructor() {
    super('A different message was already sent with this id; give each new message an id of its own');
  }
}

/** The stored message the client sent under this id again: the same one (a retry), or a conflict. */
export function sameAsSent(stored: UiMessage, again: UiMessage): UiMessage {
  if (JSON.stringify(stored.parts) !== JSON.stringify(again.parts)) throw new IdSentBefore();
  return stored;
}

/** The answer stored to the person's message `messageId`: the assistant message right after it, if any. */
export function answerTo(messages: ReadonlyArray<UiMessage>, messageId: string): UiMessage | null {
  const at = messages.findIndex((message) => message.id === messageId);
  const next = at >= 0 ? messages[at + 1] : undefined;
  return next?.role === 'assistant' ? next : null;
}

/** Why a message sent again has no answer to give: its turn ended without saving one. */
export const NO_ANSWER_KEPT = 'This message was already sent, and its turn ended without an answer. Send a new message to go on.';

/**
 * A stored answer as a turn stream, start to finish, for a message sent again after its turn ended.
 * `cut`: why that turn ended before its answer did (its instance died), said in a closing `error`
 * part, so what was kept is not taken for a whole answer.
 */
export function replayOf(answer: UiMessage | null, cut?: string): UiChunk[] {
  const failed: UiChunk[] = [
    { type: 'error', errorText: cut ?? NO_ANSWER_KEPT },
    { type: 'finish', finishReason: 'error' },
  ];
  if (!answer) return [{ type: 'start' }, ...failed];
  return [{ type: 'start', messageId: answer.id }, ...chunksRebuilding(answer), ...(cut ? failed : [{ type: 'finish' } as const])];
}
