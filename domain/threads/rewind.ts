import { Conflict } from '../errors.js';
import { isToolPart, type UiMessage } from './ui-message.js';

/**
 * What a turn replaces before it runs: `answer` is the AI SDK's regenerate (the last answer goes,
 * the model answers the same message again); `message` is edit-and-resend (the person's message
 * and everything after it go, the edited message takes its place).
 *
 * `messageId` names what the client meant: for `answer`, the last answer or the message it
 * answered; for `message`, any message the person sent (the thread rewinds to it). A client-side
 * id the server never stored (the AI SDK names a message it sent itself) is read as the last one;
 * a stored id of anything else is a conflict.
 */
export type Rewind = { readonly kind: 'answer' | 'message'; readonly messageId?: string };

export class OnlyTheLastExchange extends Conflict {
  constructor(what: string) {
    super(`Only the last ${what} can be replaced`);
  }
}

export class NotYourMessage extends Conflict {
  constructor() {
    super('Only a message you sent can be edited');
  }
}

export class AnswerAwaitsApprovals extends Conflict {
  constructor() {
    super('That answer is waiting for approvals: answer or deny them before replacing it');
  }
}

/** The messages the rewind keeps, and the ids of those it removes. */
export function rewound(messages: ReadonlyArray<UiMessage>, rewind: Rewind): { kept: UiMessage[]; removed: string[] } {
  const lastUser = findLastIndex(messages, (m) => m.role === 'user');
  if (lastUser < 0) throw new OnlyTheLastExchange(rewind.kind === 'answer' ? 'answer' : 'message you sent');
  const named = rewind.messageId === undefined ? -1 : messages.findIndex((m) => m.id === rewind.messageId);
  if (named >= 0) {
    const fits = rewind.kind === 'answer' ? named >= lastUser : messages[named]!.role === 'user';
    if (!fits) throw rewind.kind === 'answer' ? new OnlyTheLastExchange('answer') : new NotYourMessage();
  }
  const keep = rewind.kind === 'answer' ? lastUser + 1 : named >= 0 ? named : lastUser;
  if (messages.slice(keep).some(awaitsApproval)) throw new AnswerAwaitsApprovals();
  return { kept: messages.slice(0, keep), removed: messages.slice(keep).map((m) => m.id) };
}

function awaitsApproval(message: UiMessage): boolean {
  return message.parts.some((part) => isToolPart(part) && (part.state === 'approval-requested' || part.state === 'approval-responded'));
}

function findLastIndex<T>(items: ReadonlyArray<T>, test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i]!)) return i;
  return -1;
}
