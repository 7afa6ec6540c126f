import type { AppDocument } from '../domain/apps/app-document.js';
import type { EditKind } from '../domain/apps/edit-rule.js';
import type { ToolDefinition } from './tool-registry.js';

/** A host tool an app's `tool` action may run, as a generator is told about it. */
export type ActionTool = Pick<ToolDefinition, 'name' | 'description' | 'inputSchema' | 'risk' | 'egress'>;

/**
 * Told the tokens (input and output) each model step of a generation spent, as soon as the step
 * ends, so they count against the person's `tokens` budget like a turn's; awaited.
 */
export type TokenSpend = (tokens: number) => Promise<void>;

export interface CreateRequest {
  /** What the person asked for, in their words. */
  readonly prompt: string;
  readonly signal: AbortSignal;
  readonly spend?: TokenSpend;
}

export interface EditRequest {
  readonly document: AppDocument;
  readonly instruction: string;
  /** How the instruction was classified; a tree edit must not produce server code. */
  readonly kind: EditKind;
  readonly signal: AbortSignal;
  readonly spend?: TokenSpend;
}

/**
 * Writes app documents. Each call yields drafts as the document streams in — JSON-shaped values
 * that may be cut off anywhere — and the last one yielded is the finished document (still
 * unchecked: the caller validates it). A failure is thrown. What each model step spent is told to
 * the request's `spend` before the next draft, the step's failure included when the model reported it.
 */
export interface AppGenerator {
  create(request: CreateRequest): AsyncIterable<unknown>;
  edit(request: EditRequest): AsyncIterable<unknown>;
}
