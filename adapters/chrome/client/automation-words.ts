import type { Automation, ListedRun } from './automation-shapes.js';

/** How a run started, in a word or two. */
const CAUSE_WORDS: Readonly<Record<string, string>> = {
  schedule: 'schedule',
  webhook: 'webhook',
  rerun: 'run again',
  'dry-run': 'dry run',
  'run-now': 'run now',
};

/** What the run list says after a run's age: how it started and, past the first, its attempt. */
export function runMetaInWords(run: Pick<ListedRun, 'cause' | 'attempts'>): string {
  const attempts = run.attempts?.length ?? 0;
  return `${run.cause ? ` · ${CAUSE_WORDS[run.cause.kind] ?? run.cause.kind}` : ''}${attempts > 1 ? ` · attempt ${attempts}` : ''}`;
}

/** How many runs an automation takes at a time, said only when it is not the usual one, queueing the rest. */
export function concurrencyInWords(concurrency: Automation['concurrency']): string | null {
  if (!concurrency || !(concurrency.limit > 1 || concurrency.whenBusy === 'skip')) return null;
  return `${concurrency.limit} at a time${concurrency.whenBusy === 'skip' ? ', skips the rest' : ''}`;
}

/** What arming came to: armed, or waiting for the standing permissions it asks for (then Approvals is offered). */
export function armedInWords(name: string, asks: ReadonlyArray<{ tool: string }>): { text: string; approvals?: true } {
  if (asks.length === 0) return { text: `“${name}” is armed.` };
  return {
    text: `“${name}” needs your standing permission for ${asks.map((ask) => ask.tool).join(', ')} before it runs on its own.`,
    approvals: true,
  };
}
