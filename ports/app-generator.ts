import type { AppDocument } from '../domain/apps/app-document.js';
import type { EditKind } from '../domain/apps/edit-rule.js';
import type { ToolDefinition } from './tool-registry.js';

/** A host tool an app's `tool` action may run, as a generator is told about it. */
export type ActionTool = Pick<ToolDefinition, 'name' | 'description' | 'inputSchema' | 'risk' | 'egress'>;

export interface CreateRequest {
  /** What the person asked for, in their words. */
  readonly prompt: string;
  readonly signal: AbortSignal;
}

export interface EditRequest {
  readonly document: AppDocument;
  readonly instruction: string;
  /** How the instruction was classified; a tree edit must not produce server code. */
  readonly kind: EditKind;
  readonly signal: AbortSignal;
}

/**
 * Writes app documents. Each call yields drafts as the document streams in — JSON-shaped values
 * that may be cut off anywhere — and the last one yielded is the finished document (still
 * unchecked: the caller validates it). A failure is thrown.
 */
export interface AppGenerator {
  create(request: CreateRequest): AsyncIterable<unknown>;
  edit(request: EditRequest): AsyncIterable<unknown>;
}
