import type { Principal } from '../principal.js';
import type { EffectiveRisk, Presence, Venue } from './risk.js';
import { defined } from '../defined.js';

/** The automation whose run makes a call; its grants cover only calls that carry it. */
export interface CallingAutomation {
  readonly automationId: string;
  /** Its name, for people to read on approvals and grants. */
  readonly name?: string;
}

/** One call the guard rules on. */
export interface ToolCall {
  readonly toolCallId: string;
  readonly tool: string;
  readonly input: unknown;
  /** Stable digest of the input (canonical JSON), for exact-scope grants and door retries. */
  readonly inputDigest: string;
  readonly principal: Principal;
  readonly venue: Venue;
  readonly presence: Presence;
  /** The conversation, door session or run the call belongs to; session-duration grants live here. */
  readonly session: string;
  /** Door consent evidence the call carries; grants made through the door are keyed to it. */
  readonly evidence?: string;
  /** Set by an automation's run (venue `automation`) only: which automation is calling. */
  readonly automation?: CallingAutomation;
}

export interface RuledCall extends ToolCall {
  readonly effective: EffectiveRisk;
}

/** The conversation and the automation run a call was made in, when it was made in one. */
export interface ThreadAndRun {
  readonly threadId?: string;
  readonly runId?: string;
}

/** Just the thread and run `from` names, leaving out either when it has none (records and audit details omit absent keys). */
export function threadAndRun(from: ThreadAndRun): ThreadAndRun {
  return defined({ threadId: from.threadId || undefined, runId: from.runId || undefined });
}

/**
 * Canonical JSON: object keys sorted at every depth, so equal inputs digest equally whatever the
 * key order the model produced.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
