import { isDataPart, isToolPart, type MessagePart, type ToolPart, type UiMessage } from './ui-message.js';

/**
 * The last `size` whole messages. A tool call and its result are never split: if a kept message
 * refers to a tool call (by id) that lives in an earlier message, the window grows back to it.
 */
export function historyWindow(messages: ReadonlyArray<UiMessage>, size: number | undefined): UiMessage[] {
  if (size === undefined || messages.length <= size) return [...messages];
  let start = messages.length - size;
  for (;;) {
    const kept = messages.slice(start);
    const defined = new Set(kept.flatMap((m) => m.parts.filter(isToolPart).map((p) => p.toolCallId)));
    const missing = kept.flatMap((m) => referencedCalls(m)).filter((id) => !defined.has(id));
    if (missing.length === 0) return [...kept];
    const earliest = Math.min(
      ...missing.map((id) => messages.findIndex((m) => m.parts.some((p) => isToolPart(p) && p.toolCallId === id))).filter((i) => i >= 0),
    );
    if (!Number.isFinite(earliest) || earliest >= start) return [...kept];
    start = earliest;
  }
}

/** Tool calls a message refers to without holding them (results shown after a later approval). */
function referencedCalls(message: UiMessage): string[] {
  return message.parts.filter(isDataPart).flatMap((part) => {
    const id = (part.data as { toolCallId?: unknown } | null)?.toolCallId;
    return typeof id === 'string' ? [id] : [];
  });
}

/** What replaces a tool result longer than the cap in the model's view. */
export interface TruncatedOutput {
  readonly truncated: true;
  readonly originalLength: number;
  readonly content: string;
}

/**
 * Truncates each tool result longer than `cap` characters (0: no cap) before it reaches the model,
 * marked as truncated. Returns copies; the stored thread keeps the full result.
 */
export function capToolOutputs(messages: ReadonlyArray<UiMessage>, cap: number): UiMessage[] {
  if (cap <= 0) return [...messages];
  return messages.map((message) => ({ ...message, parts: message.parts.map((part) => (isToolPart(part) ? capPart(part, cap) : part)) }));
}

function capPart(part: ToolPart, cap: number): ToolPart {
  if (part.state === 'output-available') {
    const text = typeof part.output === 'string' ? part.output : JSON.stringify(part.output ?? null);
    if (text.length <= cap) return part;
    const output: TruncatedOutput = { truncated: true, originalLength: text.length, content: text.slice(0, cap) };
    return { ...part, output };
  }
  if (part.state === 'output-error' && part.errorText && part.errorText.length > cap) {
    return { ...part, errorText: `${part.errorText.slice(0, cap)} [truncated from ${part.errorText.length} characters]` };
  }
  return part;
}

/**
 * Calls that never got a result (waiting for approval, or cut off by a disconnect) are shown to
 * the model as such, so every call it sees has an answer.
 */
export function settleOpenCalls(messages: ReadonlyArray<UiMessage>): UiMessage[] {
  return messages.map((message) => ({ ...message, parts: message.parts.map(settle) }));
}

function settle(part: MessagePart): MessagePart {
  if (!isToolPart(part)) return part;
  if (part.state === 'approval-requested' || part.state === 'approval-responded') {
    return {
      type: part.type,
      toolCallId: part.toolCallId,
      state: 'output-available',
      input: part.input,
      output: { status: 'awaiting-approval', note: 'The person has not approved this call yet.' },
    };
  }
  if (part.state === 'input-available' || part.state === 'input-streaming') {
    return {
      type: part.type,
      toolCallId: part.toolCallId,
      state: 'output-error',
      input: part.input ?? {},
      errorText: 'The call did not complete.',
    };
  }
  return part;
}

/**
 * Everything the model is shown: the window over the thread's history (messages that say
 * something), then the answer this turn is writing — never windowed away, so a long tool loop
 * keeps the request it answers — with open calls settled and long outputs capped.
 */
export function modelView(
  history: ReadonlyArray<UiMessage>,
  current: UiMessage | null,
  options: { historyWindow?: number; toolOutputCap: number },
): UiMessage[] {
  const said = (message: UiMessage) => message.parts.some((part) => part.type !== 'step-start');
  const shown = historyWindow(history.filter(said), options.historyWindow);
  if (current && said(current)) shown.push(current);
  return capToolOutputs(settleOpenCalls(shown), options.toolOutputCap);
}
