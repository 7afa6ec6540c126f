import type { Presence, Venue } from '../../domain/guard/risk.js';
import type { Principal } from '../../domain/principal.js';
import type { StreamedData, StreamedSource } from '../../ports/tool-registry.js';
import type { PresentCredentials } from './host-access.js';
import { defined } from '../../domain/defined.js';

/** The conversation a call belongs to: a chat's thread, an automation's run, or neither. */
export interface Conversation {
  readonly threadId?: string;
  readonly runId?: string;
}

/** Where a call is made: the venue, whether the person is there, the session, and its conversation. */
export interface CallPlace extends Conversation {
  readonly venue: Venue;
  readonly presence: Presence;
  readonly session: string;
}

/** Who makes a tool call, where, in which conversation, and what it may stream: carried from the guard to the tool. */
export interface CallSite extends CallPlace {
  readonly toolCallId: string;
  readonly principal: Principal;
  readonly credentials?: PresentCredentials;
  readonly signal: AbortSignal;
  /** Where the tool may stream data parts (a chat turn). */
  readonly writeData?: (part: StreamedData) => void;
  /** Where the tool may cite its sources (a chat turn's answer). */
  readonly cite?: (source: StreamedSource) => void;
}

/** Only the conversation ids there are: what audits, approvals and tools are told of a call's conversation. */
export function conversationOf({ threadId, runId }: Conversation): Conversation {
  return defined({ threadId: threadId || undefined, runId: runId || undefined });
}

/** Where a call is made, taken from whatever carries it (the call, the approval it parked, the run of its tool). */
export function placeOf(from: CallPlace): CallPlace {
  return { venue: from.venue, presence: from.presence, session: from.session, ...conversationOf(from) };
}

/** The call site alone, out of a call that carries more (its tool, its input): what the tool runner is handed. */
export function callSiteOf(from: CallSite): CallSite {
  return {
    toolCallId: from.toolCallId,
    principal: from.principal,
    ...placeOf(from),
    ...defined({ credentials: from.credentials }),
    signal: from.signal,
    ...defined({ writeData: from.writeData, cite: from.cite }),
  };
}
