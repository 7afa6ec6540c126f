import type { RunAttempt, RunDetail, RunSummary } from './run-shapes.js';
import { dateTime, relativeTime } from './time.js';

export const TERMINAL_RUN_STATES = new Set(['succeeded', 'failed', 'cancelled', 'skipped']);

export const RUN_LABEL: Readonly<Record<string, string>> = {
  queued: 'Queued',
  running: 'Running',
  waiting: 'Waiting for approval',
  succeeded: 'Done',
  failed: 'Failed',
  cancelled: 'Stopped',
  skipped: 'Skipped',
};

/**
 * A run's state as a person reads it: one that succeeded though some of its tool calls failed is
 * "Finished with failed calls" (tone `partial`), never a plain green "Done".
 */
export function runStatus(r: RunSummary): { label: string; tone: string } {
  if (r.state === 'running' && r.stopRequestedAt) return { label: 'Stopping', tone: 'running' };
  if (r.state === 'queued' && r.nextAttemptAt) return { label: 'Retrying', tone: 'queued' };
  if (r.state === 'succeeded' && (r.failedCalls ?? 0) > 0) return { label: 'Finished with failed calls', tone: 'partial' };
  return { label: RUN_LABEL[r.state] ?? r.state, tone: r.state };
}

/** How an attempt ended, in a word. */
export const OUTCOME_LABEL: Readonly<Record<string, string>> = {
  succeeded: 'Succeeded',
  failed: 'Failed',
  cancelled: 'Stopped',
  interrupted: 'Interrupted',
};

/** Where the completion webhook's delivery stands, in a word. */
export const DELIVERY_LABEL: Readonly<Record<string, string>> = { pending: 'Sending', delivered: 'Delivered', failed: 'Not delivered' };

/** Why the run started, in words. */
export function causeInWords(cause: RunDetail['cause']): string | null {
  switch (cause?.kind) {
    case 'schedule':
      return 'On its schedule';
    case 'webhook':
      return 'By a webhook';
    case 'rerun':
      return 'Run again by you';
    case 'dry-run':
      return 'A dry run you started';
    case 'run-now':
      if (cause.venue === 'wire') return 'Started by you with Run now';
      return cause.venue === 'mcp' ? 'Started by you through a connected agent' : 'Started by you from a chat';
    default:
      return null;
  }
}

/** The run page's title: a dry run or a run, of the automation when its name is known. */
export function runTitle(name: string | undefined, dryRun: boolean | undefined): string {
  return name ? `${dryRun ? 'Dry run' : 'Run'} of “${name}”` : dryRun ? 'Dry run' : 'Run';
}

/** The attempt before the one going on, when its instance stopped under it; else null. */
export function resumedAttempt(attempts: ReadonlyArray<RunAttempt>): RunAttempt | null {
  const last = attempts[attempts.length - 1];
  const before = attempts[attempts.length - 2];
  return last && !last.outcome && before?.outcome === 'interrupted' ? before : null;
}

/** Why a queued run waits to be tried again, and when. */
export function retryInWords(lastOutcome: string | null | undefined, nextAttemptAt: string, now?: Date): string {
  return lastOutcome === 'interrupted'
    ? 'The last attempt was interrupted: the instance running it stopped. It is tried again now, on another instance, going on after the calls it had finished.'
    : `The last attempt failed for a temporary reason. It is tried again ${relativeTime(nextAttemptAt, now)} (${dateTime(nextAttemptAt)}).`;
}

/** How many of a finished run's tool calls failed, as its warning says it. */
export function failedCallsInWords(failedCalls: number): string {
  return `It finished, but ${failedCalls === 1 ? 'one of its tool calls' : `${failedCalls} of its tool calls`} failed: what it did may be incomplete. The transcript below shows each error.`;
}

/** What the transcript says when the run said nothing. */
export function silentTranscript(state: string): string {
  return !TERMINAL_RUN_STATES.has(state) ? 'Nothing said yet.' : state === 'skipped' ? 'It never started.' : 'This run said nothing.';
}
