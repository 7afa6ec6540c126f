/**
 * Messages as the AI SDK's UI message format shapes them (UIMessage), so a stored thread is what a
 * stock `ai` client renders. The domain names only the parts Porter reads or writes; others (files,
 * reasoning) pass through untouched.
 */
export type MessageRole = 'system' | 'user' | 'assistant';

export interface TextPart {
  readonly type: 'text';
  readonly text: string;
  readonly state?: 'streaming' | 'done';
}

export type ToolPartState =
  | 'input-streaming'
  | 'input-available'
  | 'approval-requested'
  | 'approval-responded'
  | 'output-available'
  | 'output-error'
  | 'output-denied';

export interface ToolApprovalInfo {
  readonly id: string;
  readonly approved?: boolean;
  readonly reason?: string;
}

/** `type` is `tool-<name>`. */
export interface ToolPart {
  readonly type: `tool-${string}`;
  readonly toolCallId: string;
  readonly state: ToolPartState;
  readonly input?: unknown;
  readonly output?: unknown;
  readonly errorText?: string;
  readonly approval?: ToolApprovalInfo;
}

/** `type` is `data-<name>`; a part with an id is replaced in place by a later one with the same id. */
export interface DataPart {
  readonly type: `data-${string}`;
  readonly id?: string;
  readonly data: unknown;
}

export interface StepStartPart {
  readonly type: 'step-start';
}

export interface OtherPart {
  readonly type: string;
  readonly [key: string]: unknown;
}

export type MessagePart = TextPart | ToolPart | DataPart | StepStartPart | OtherPart;

export interface UiMessage {
  readonly id: string;
  readonly role: MessageRole;
  readonly parts: ReadonlyArray<MessagePart>;
  readonly metadata?: unknown;
}

export function isToolPart(part: MessagePart): part is ToolPart {
  return part.type.startsWith('tool-') && typeof (part as ToolPart).toolCallId === 'string';
}

export function isDataPart(part: MessagePart): part is DataPart {
  return part.type.startsWith('data-');
}

export function toolNameOf(part: ToolPart): string {
  return part.type.slice('tool-'.length);
}

/** The plain text of a message's text parts. */
export function textOf(message: UiMessage): string {
  return message.parts
    .filter((part): part is TextPart => part.type === 'text')
    .map((part) => part.text)
    .join('');
}

/** How many tool calls in these messages ended in an error (a guard refusal, a throw, a limit reached). */
export function failedToolCalls(messages: ReadonlyArray<UiMessage>): number {
  return messages.reduce(
    (count, message) => count + message.parts.filter((part) => isToolPart(part) && part.state === 'output-error').length,
    0,
  );
}

/** Whether a message holds anything a person would call an answer so far: text or a tool call. */
export function producedAnything(message: UiMessage): boolean {
  return textOf(message).trim() !== '' || message.parts.some(isToolPart);
}
