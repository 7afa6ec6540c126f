import type { UiMessage } from '../domain/threads/ui-message.js';
import type { JsonSchema } from './tool-registry.js';

export interface ModelTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

/** One model step: the conversation as the model may see it, and the tools it may call. */
export interface ModelStepRequest {
  readonly instructions?: string;
  readonly messages: ReadonlyArray<UiMessage>;
  readonly tools: ReadonlyArray<ModelTool>;
  readonly maxOutputTokens?: number;
  readonly signal: AbortSignal;
}

export type ModelEvent =
  | { readonly type: 'text-delta'; readonly delta: string }
  | { readonly type: 'tool-call'; readonly toolCallId: string; readonly toolName: string; readonly input: unknown }
  | {
      readonly type: 'finish';
      readonly reason: 'stop' | 'length' | 'tool-calls' | 'error' | 'other';
      readonly outputTokens?: number;
      /** The step's tokens, input and output (the AI SDK's `totalUsage`): what a `tokens` budget counts. */
      readonly totalTokens?: number;
    };

/** What a model said in one call answered whole (no tools): its text, why it stopped, and the tokens it spent. */
export interface ModelText {
  readonly text: string;
  readonly reason: Extract<ModelEvent, { type: 'finish' }>['reason'];
  readonly outputTokens?: number;
  /** The call's tokens, input and output: what a `tokens` budget counts. */
  readonly totalTokens?: number;
}

/**
 * The agent's language model, one step at a time: Porter runs the loop (so every tool call passes
 * the guard), the model only speaks and asks for tools. A failure is thrown (or the iterator
 * rejects) and ends the turn with an error part.
 */
export interface Model {
  /** `custom` when the host passed a model, `ladder` when Porter picked one. */
  readonly source: 'custom' | 'ladder';
  /** Which model answers, for logs and status (never a key). */
  readonly label: string;
  /** Returns for a real model; the null model (a deployment without one) throws NotImplemented, so a turn is refused before it holds its thread. */
  assertConfigured(): void;
  streamStep(request: ModelStepRequest): AsyncIterable<ModelEvent>;
  /**
   * One call without tools answered whole, for text nobody watches arrive (a thread's title): a
   * provider's single response costs a fraction of a stream's parts. A model that only streams is
   * streamed and its text gathered.
   */
  generateText(request: Omit<ModelStepRequest, 'tools'>): Promise<ModelText>;
}
