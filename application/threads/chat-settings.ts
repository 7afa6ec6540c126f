/** The host's chat options. */
export interface ChatSettings {
  /** Re-send only the last N whole messages per turn (all when absent). */
  readonly historyWindow?: number;
  /** Longest tool result the model sees, in characters; 0 disables. */
  readonly toolOutputCap: number;
  /** Bound on model output tokens per turn. */
  readonly maxOutputTokens?: number;
  /** Standing instructions for the agent (the system prompt). */
  readonly instructions?: string;
  /** Model steps per turn before Porter stops the loop. */
  readonly maxSteps: number;
  /** How often an answer is saved while it streams, in milliseconds (default 2000; 0: only at the end). */
  readonly checkpointMs?: number;
}

export const DEFAULT_MAX_STEPS = 8;
