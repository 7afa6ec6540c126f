import { isDataPart, isToolPart, toolNameOf, type DataPart, type MessagePart, type ToolPart, type UiMessage } from './ui-message.js';

/**
 * The chunks of the AI SDK UI message stream protocol (v1) that a Porter turn emits. The wire
 * frames them as SSE; `applyChunk` folds them into the stored assistant message exactly as a
 * client's reader does, so what is saved is what was seen.
 */
export type UiChunk =
  | { type: 'start'; messageId?: string }
  | { type: 'start-step' }
  | { type: 'finish-step' }
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string }
  | { type: 'tool-input-available'; toolCallId: string; toolName: string; input: unknown }
  | { type: 'tool-output-available'; toolCallId: string; output: unknown }
  | { type: 'tool-output-error'; toolCallId: string; errorText: string }
  | { type: 'tool-approval-request'; approvalId: string; toolCallId: string }
  | { type: 'tool-output-denied'; toolCallId: string }
  | { type: `data-${string}`; id?: string; data: unknown }
  | SourceChunk
  | { type: 'error'; errorText: string }
  | { type: 'abort'; reason?: string }
  | { type: 'finish'; finishReason?: 'stop' | 'length' | 'tool-calls' | 'error' | 'other'; messageMetadata?: unknown };

/** JSON by provider, as the AI SDK's `providerMetadata` carries it. */
type ProviderMetadata = Readonly<Record<string, Readonly<Record<string, string | number | boolean | null>>>>;

/** A source the answer cites: the part it becomes has the chunk's fields. */
export type SourceChunk =
  | { type: 'source-document'; sourceId: string; mediaType: string; title: string; filename?: string; providerMetadata?: ProviderMetadata }
  | { type: 'source-url'; sourceId: string; url: string; title?: string; providerMetadata?: ProviderMetadata };

/** Text parts still streaming, by chunk id, so deltas land on the right part. */
export interface MessageDraft {
  message: UiMessage;
  openText: Map<string, number>;
}

export function draftOf(message: UiMessage): MessageDraft {
  return { message, openText: new Map() };
}

/** Folds one chunk into the draft. Chunks that carry no content (start, finish...) change nothing. */
export function applyChunk(draft: MessageDraft, chunk: UiChunk): void {
  const parts = [...draft.message.parts];
  const set = (index: number, part: MessagePart) => {
    parts[index] = part;
  };
  const toolIndex = (toolCallId: string) => parts.findIndex((p) => p.type.startsWith('tool-') && (p as ToolPart).toolCallId === toolCallId);
  const updateTool = (toolCallId: string, change: Partial<ToolPart>) => {
    const index = toolIndex(toolCallId);
    if (index >= 0) set(index, { ...(parts[index] as ToolPart), ...change } as ToolPart);
  };
  const approvalOf = (toolCallId: string) => {
    const index = toolIndex(toolCallId);
    return index >= 0 ? (parts[index] as ToolPart).approval : undefined;
  };
  /** A call that ran after an approval was asked for ran because it was approved. */
  const approvedIfAsked = (toolCallId: string): Partial<ToolPart> => {
    const approval = approvalOf(toolCallId);
    return approval ? { approval: { id: approval.id, approved: true } } : {};
  };

  switch (chunk.type) {
    case 'start-step':
      parts.push({ type: 'step-start' });
      break;
    case 'text-start':
      draft.openText.set(chunk.id, parts.length);
      parts.push({ type: 'text', text: '', state: 'streaming' });
      break;
    case 'text-delta': {
      const index = draft.openText.get(chunk.id);
      if (index !== undefined) {
        const part = parts[index] as { text: string };
        set(index, { type: 'text', text: part.text + chunk.delta, state: 'streaming' });
      }
      break;
    }
    case 'text-end': {
      const index = draft.openText.get(chunk.id);
      if (index !== undefined) {
        set(index, { type: 'text', text: (parts[index] as { text: string }).text, state: 'done' });
        draft.openText.delete(chunk.id);
      }
      break;
    }
    case 'tool-input-available':
      parts.push({ type: `tool-${chunk.toolName}`, toolCallId: chunk.toolCallId, state: 'input-available', input: chunk.input });
      break;
    case 'tool-approval-request':
      updateTool(chunk.toolCallId, { state: 'approval-requested', approval: { id: chunk.approvalId } });
      break;
    case 'tool-output-available':
      updateTool(chunk.toolCallId, { state: 'output-available', output: chunk.output, ...approvedIfAsked(chunk.toolCallId) });
      break;
    case 'tool-output-error':
      updateTool(chunk.toolCallId, { state: 'output-error', errorText: chunk.errorText, ...approvedIfAsked(chunk.toolCallId) });
      break;
    case 'tool-output-denied':
      updateTool(chunk.toolCallId, { state: 'output-denied', approval: { id: approvalOf(chunk.toolCallId)?.id ?? '', approved: false } });
      break;
    case 'source-document':
    case 'source-url':
      // A source cited twice in one answer is one part.
      if (!parts.some((p) => p.type === chunk.type && (p as { sourceId?: unknown }).sourceId === chunk.sourceId)) parts.push({ ...chunk });
      break;
    default:
      if (chunk.type.startsWith('data-')) {
        const data = chunk as DataPart;
        const part: DataPart =
          data.id === undefined ? { type: data.type, data: data.data } : { type: data.type, id: data.id, data: data.data };
        const existing = data.id === undefined ? -1 : parts.findIndex((p) => p.type === data.type && (p as DataPart).id === data.id);
        if (existing >= 0) set(existing, part);
        else parts.push(part);
      }
  }
  draft.message = { ...draft.message, parts };
}

/** Text still streaming when a turn stops early is closed as it stands. */
export function closeOpenText(draft: MessageDraft): void {
  const parts = draft.message.parts.map((part) =>
    part.type === 'text' && (part as { state?: string }).state === 'streaming' ? { ...part, state: 'done' as const } : part,
  );
  draft.openText.clear();
  draft.message = { ...draft.message, parts };
}

/**
 * The chunks that build `message` from nothing, as a turn would have streamed it. A client that
 * rejoins a turn continuing an earlier answer reads these first: the live chunks that follow (a
 * call's result, say) only make sense on top of the message they continue.
 */
export function chunksRebuilding(message: UiMessage): UiChunk[] {
  const chunks: UiChunk[] = [];
  message.parts.forEach((part, index) => {
    if (part.type === 'step-start') {
      chunks.push({ type: 'start-step' });
    } else if (part.type === 'text') {
      const id = `rebuilt-${index}`;
      chunks.push({ type: 'text-start', id }, { type: 'text-delta', id, delta: String(part.text ?? '') }, { type: 'text-end', id });
    } else if (isToolPart(part)) {
      chunks.push({ type: 'tool-input-available', toolCallId: part.toolCallId, toolName: toolNameOf(part), input: part.input });
      if (part.approval?.id && part.state !== 'input-available' && part.state !== 'input-streaming')
        chunks.push({ type: 'tool-approval-request', approvalId: part.approval.id, toolCallId: part.toolCallId });
      if (part.state === 'output-available')
        chunks.push({ type: 'tool-output-available', toolCallId: part.toolCallId, output: part.output });
      else if (part.state === 'output-error')
        chunks.push({ type: 'tool-output-error', toolCallId: part.toolCallId, errorText: part.errorText ?? '' });
      else if (part.state === 'output-denied') chunks.push({ type: 'tool-output-denied', toolCallId: part.toolCallId });
    } else if (part.type === 'source-document' || part.type === 'source-url') {
      chunks.push({ ...part } as SourceChunk);
    } else if (isDataPart(part)) {
      chunks.push(part.id === undefined ? { type: part.type, data: part.data } : { type: part.type, id: part.id, data: part.data });
    }
  });
  return chunks;
}
