import type { UiMessage } from './ui-message.js';

/**
 * Why a turn could not finish its answer: the model failed, a budget ran out mid-way, the host gave
 * up a turn nobody read, or the instance writing it stopped (a crash, its lease lapsing) before the
 * answer was saved whole. A person's stop is their choice, never an interruption.
 */
export type InterruptionReason = 'model-failed' | 'limit-reached' | 'given-up' | 'instance-stopped';

/**
 * The mark a stored message carries when the turn answering it did not finish: in the message's
 * metadata (the AI SDK's `UIMessage.metadata`) as `interrupted`, on the answer as far as it got,
 * or on the person's message when no answer was kept. A turn that answers it again clears it.
 */
export interface Interruption {
  readonly reason: InterruptionReason;
  /** What happened, in words a person reads. */
  readonly message: string;
}

export const INSTANCE_STOPPED: Interruption = {
  reason: 'instance-stopped',
  message: 'The instance writing this answer stopped before it finished.',
};

/**
 * The message marked interrupted. Metadata the client gave (an object) keeps its other members; a
 * message whose metadata is not an object is left as it is (there is nowhere to put the mark).
 */
export function interrupted(message: UiMessage, interruption: Interruption): UiMessage {
  const metadata = message.metadata;
  if (metadata !== undefined && !isRecord(metadata)) return message;
  return { ...message, metadata: { ...metadata, interrupted: { reason: interruption.reason, message: interruption.message } } };
}

/** The message's interruption mark, or null when it has none. */
export function interruptionOf(message: UiMessage | undefined): Interruption | null {
  const mark = message && isRecord(message.metadata) ? message.metadata.interrupted : undefined;
  if (!isRecord(mark) || typeof mark.reason !== 'string' || typeof mark.message !== 'string') return null;
  return mark as unknown as Interruption;
}

/** The message without its mark (the same message when it has none). */
export function uninterrupted(message: UiMessage): UiMessage {
  if (!isRecord(message.metadata) || !('interrupted' in message.metadata)) return message;
  const { interrupted: _mark, ...rest } = message.metadata;
  if (Object.keys(rest).length > 0) return { ...message, metadata: rest };
  const { metadata: _metadata, ...bare } = message;
  return bare;
}

/**
 * The thread's messages as a reader sees them, given the state of its turn: while a turn is live,
 * the answer it is writing (saved by its checkpoints marked as if its instance stopped) shows no
 * mark; once a turn was abandoned (its instance died), a person's message it left without any
 * saved answer shows the mark. `turn`: `live`, `abandoned`, or `none`.
 */
export function asReadDuring(messages: ReadonlyArray<UiMessage>, turn: 'live' | 'abandoned' | 'none'): UiMessage[] {
  const all = [...messages];
  const last = all.at(-1);
  if (!last || turn === 'none') return all;
  if (turn === 'live' && last.role === 'assistant') all[all.length - 1] = uninterrupted(last);
  if (turn === 'abandoned' && last.role === 'user' && !interruptionOf(last)) all[all.length - 1] = interrupted(last, INSTANCE_STOPPED);
  return all;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
