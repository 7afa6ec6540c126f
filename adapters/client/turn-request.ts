import { isToolUIPart, type UIMessage } from 'ai';

/**
 * What a turn posts to `POST {wire}/threads/:id/turn`. The server owns history, so only what is
 * new goes: the user's message, the approval answers given on the last assistant message, or
 * `{continue: true}` when approvals were decided elsewhere and the turn should carry on.
 */
export function turnRequestBody(
  messages: ReadonlyArray<UIMessage>,
  trigger: 'submit-message' | 'regenerate-message',
  messageId: string | undefined,
): object {
  const last = messages.at(-1);
  if (trigger === 'regenerate-message') {
    return {
      messages: last ? [last.role === 'user' ? userMessageOf(last) : last] : [],
      trigger,
      ...(messageId !== undefined ? { messageId } : {}),
    };
  }
  // `sendMessage({text, messageId})`: the person edited their last message and sends it again.
  if (last?.role === 'user' && messageId !== undefined) return { messages: [userMessageOf(last)], trigger, messageId };
  if (last?.role === 'user') return { message: userMessageOf(last) };
  if (last?.role === 'assistant') {
    const answers = approvalAnswersOf(last);
    if (answers.length > 0) return { messages: [{ id: last.id, role: 'assistant', parts: answers }] };
  }
  return { continue: true };
}

/** A user message as the wire takes it: its text and file parts (the rest is the client's own). */
function userMessageOf(message: UIMessage): object {
  const parts = message.parts.flatMap((part): object[] => {
    if (part.type === 'text') return [{ type: 'text', text: part.text }];
    if (part.type === 'file')
      return [
        { type: 'file', mediaType: part.mediaType, url: part.url, ...(part.filename !== undefined ? { filename: part.filename } : {}) },
      ];
    return [];
  });
  return { id: message.id, role: 'user', parts, ...(message.metadata !== undefined ? { metadata: message.metadata } : {}) };
}

/** The tool parts the person answered (`addToolApprovalResponse`), reduced to the answer itself. */
function approvalAnswersOf(message: UIMessage): object[] {
  return message.parts.flatMap((part) =>
    isToolUIPart(part) && part.state === 'approval-responded'
      ? [
          {
            type: part.type,
            toolCallId: part.toolCallId,
            state: part.state,
            approval: {
              id: part.approval.id,
              approved: part.approval.approved,
              ...(part.approval.reason !== undefined ? { reason: part.approval.reason } : {}),
            },
          },
        ]
      : [],
  );
}
