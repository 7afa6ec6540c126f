import type { Run, RunState } from '../../domain/runs/run.js';
import { textOf, type UiMessage } from '../../domain/threads/ui-message.js';

/** How much of the agent's last words a completion webhook carries. */
export const SUMMARY_LIMIT = 1_000;

/**
 * What a run came to, in a line a receiver can show: for a run that succeeded the agent's last
 * text, otherwise why it failed or stopped (else its last text), capped at SUMMARY_LIMIT characters.
 */
export function runSummary(run: Run, messages: ReadonlyArray<UiMessage>): string | null {
  return summaryOf(run.state, run.toPrimitives().error, messages);
}

/** The same from a run's state and error, as a view of it carries them. */
export function summaryOf(state: RunState, error: string | null, messages: ReadonlyArray<UiMessage>): string | null {
  const lastWords =
    [...messages]
      .reverse()
      .filter((message) => message.role === 'assistant')
      .map((message) => textOf(message).trim())
      .find(Boolean) ?? null;
  const summary = state === 'succeeded' ? lastWords : (error ?? lastWords);
  if (summary === null) return null;
  return summary.length > SUMMARY_LIMIT ? `${summary.slice(0, SUMMARY_LIMIT - 1)}…` : summary;
}
