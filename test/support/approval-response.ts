import type { UIMessage } from 'ai';
import type { Part } from './turn-client.js';

/**
 * The assistant message as the AI SDK re-posts it after `addToolApprovalResponse`: the tool part
 * `part` turned `approval-responded`, carrying `approval`, every other part as it was.
 */
export function approvalResponded(
  message: UIMessage,
  part: Part,
  approval: { readonly id: string; readonly approved: boolean },
): UIMessage {
  return {
    ...message,
    parts: message.parts.map((p) =>
      p === (part as unknown) ? { ...part, state: 'approval-responded', approval } : p,
    ) as UIMessage['parts'],
  };
}
