import type { Presence, Venue } from '../../domain/guard/risk.js';
import type { Principal } from '../../domain/principal.js';
import type { StreamedData } from '../../ports/tool-registry.js';
import type { PresentCredentials } from './host-access.js';

/** Who makes a tool call, where, in which conversation, and what it may stream: carried from the guard to the tool. */
export interface CallSite {
  readonly toolCallId: string;
  readonly principal: Principal;
  readonly venue: Venue;
  readonly presence: Presence;
  readonly session: string;
  readonly threadId?: string;
  readonly runId?: string;
  readonly credentials?: PresentCredentials;
  readonly signal: AbortSignal;
  /** Where the tool may stream data parts (a chat turn). */
  readonly writeData?: (part: StreamedData) => void;
}
