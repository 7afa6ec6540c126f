import type { Principal } from '../../domain/principal.js';
import type { Presence, Venue } from '../../domain/guard/risk.js';
import type { CallingAutomation } from '../../domain/guard/tool-call.js';
import type { UiChunk } from '../../domain/threads/ui-chunk.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { PresentCredentials } from '../guard/host-access.js';

/**
 * Where a turn's calls come from when it is not a chat turn: an automation's run executes the same
 * loop away from the person, keeps its messages in its own transcript, and may be asked to stop.
 */
export interface TurnScope {
  readonly venue: Venue;
  readonly presence: Presence;
  /** The session grants and approvals are filed under (the run id for a run). */
  readonly session: string;
  readonly runId?: string;
  /** For a run: its automation, whose grants (and only whose) its calls may use. */
  readonly automation?: CallingAutomation;
  /** Where the turn's messages are kept instead of the thread. */
  readonly save: (message: UiMessage) => Promise<void>;
  /** Asked before every step: true ends the loop once the step before it has finished (a cooperative stop). */
  readonly shouldStop?: () => Promise<boolean>;
  /** A dry run: the guard previews every write, destructive and egress call instead of running it. */
  readonly dryRun?: boolean;
  /** Told what ended the turn when it failed (a run decides from it whether to try again). */
  readonly onError?: (error: unknown) => void;
}

export interface TurnInput {
  readonly principal: Principal;
  /** The thread; for a scoped turn (a run), its id, used in logs. */
  readonly threadId: string;
  /** Absent for a chat turn: venue chat, the person present, the thread as session and store. */
  readonly scope?: TurnScope;
  /** The thread as stored, oldest first, including the new user message if any. */
  readonly messages: UiMessage[];
  /** The assistant message this turn continues, or null to start a new one. */
  readonly continuing: UiMessage | null;
  readonly credentials?: PresentCredentials;
  /** Aborts everything at once, tool calls included (nobody reads any more, the thread was deleted). */
  readonly signal: AbortSignal;
  /**
   * A person's stop, cooperative: the model's current step is cut where it is, calls already
   * running finish, no further call or step starts, and the turn ends with what it produced.
   */
  readonly stop?: AbortSignal;
  readonly emit: (chunk: UiChunk) => void;
  /** The thread's owner as the turn found it: the answer's words are indexed under it without a read. */
  readonly owner?: string;
  /** The thread held no message before this turn's: no turn parked a call in it, so none waits to run. */
  readonly fresh?: boolean;
  /** What the person's memories say about their new message, looked up already (never rejects); absent, the turn recalls them. */
  readonly recalled?: Promise<string | null>;
}

/** A person asked the turn to stop (and nothing harder cut it). */
export function stopped(input: TurnInput): boolean {
  return input.stop?.aborted === true && !input.signal.aborted;
}
