import { expect } from 'chai';
import type { RunAttempt, RunSummary } from '../../../../adapters/chrome/client/run-shapes.js';
import {
  causeInWords,
  failedCallsInWords,
  resumedAttempt,
  retryInWords,
  runStatus,
  runTitle,
  silentTranscript,
} from '../../../../adapters/chrome/client/run-status.js';

const run = (fields: Partial<RunSummary>): RunSummary => ({
  id: 'run_1',
  automationId: 'aut_1',
  state: 'running',
  createdAt: '2026-11-29T09:00:00.000Z',
  ...fields,
});
const attempt = (number: number, outcome: string | null): RunAttempt => ({
  number,
  startedAt: '2026-11-29T09:00:00.000Z',
  endedAt: null,
  outcome,
  error: null,
  retryAt: null,
});

describe('The chrome says where a run stands in words a person reads (run-status)', () => {
  it('says Stopping once a stop is asked, Retrying while a retry waits, and never a plain Done when calls failed', () => {
    expect(runStatus(run({ state: 'running', stopRequestedAt: '2026-11-29T09:01:00.000Z' }))).to.deep.equal({
      label: 'Stopping',
      tone: 'running',
    });
    expect(runStatus(run({ state: 'queued', nextAttemptAt: '2026-11-29T09:05:00.000Z' }))).to.deep.equal({
      label: 'Retrying',
      tone: 'queued',
    });
    expect(runStatus(run({ state: 'succeeded', failedCalls: 2 }))).to.deep.equal({ label: 'Finished with failed calls', tone: 'partial' });
    expect(runStatus(run({ state: 'succeeded', failedCalls: 0 }))).to.deep.equal({ label: 'Done', tone: 'succeeded' });
    expect(runStatus(run({ state: 'waiting' })).label).to.equal('Waiting for approval');
    expect(runStatus(run({ state: 'cancelled' })).label).to.equal('Stopped');
    expect(runStatus(run({ state: 'brand-new' }))).to.deep.equal({ label: 'brand-new', tone: 'brand-new' });
  });

  it('says why a run started, and by which venue a Run now came', () => {
    expect(causeInWords({ kind: 'schedule' })).to.equal('On its schedule');
    expect(causeInWords({ kind: 'webhook' })).to.equal('By a webhook');
    expect(causeInWords({ kind: 'rerun', of: 'run_0' })).to.equal('Run again by you');
    expect(causeInWords({ kind: 'dry-run' })).to.equal('A dry run you started');
    expect(causeInWords({ kind: 'run-now', venue: 'wire' })).to.equal('Started by you with Run now');
    expect(causeInWords({ kind: 'run-now', venue: 'mcp' })).to.equal('Started by you through a connected agent');
    expect(causeInWords({ kind: 'run-now', venue: 'chat' })).to.equal('Started by you from a chat');
    expect(causeInWords({ kind: 'other' })).to.equal(null);
    expect(causeInWords(undefined)).to.equal(null);
  });

  it('titles the page after the automation once its name is known, a dry run as one', () => {
    expect(runTitle('Morning summary', false)).to.equal('Run of “Morning summary”');
    expect(runTitle('Morning summary', true)).to.equal('Dry run of “Morning summary”');
    expect(runTitle(undefined, true)).to.equal('Dry run');
    expect(runTitle(undefined, undefined)).to.equal('Run');
  });

  it('finds the interrupted attempt the one going on resumes, and none otherwise', () => {
    expect(resumedAttempt([attempt(1, 'interrupted'), attempt(2, null)])?.number).to.equal(1);
    expect(resumedAttempt([attempt(1, 'failed'), attempt(2, null)])).to.equal(null);
    expect(resumedAttempt([attempt(1, 'interrupted'), attempt(2, 'succeeded')])).to.equal(null);
    expect(resumedAttempt([attempt(1, null)])).to.equal(null);
    expect(resumedAttempt([])).to.equal(null);
  });

  it('says why a queued run is tried again: another instance goes on now, or a temporary failure waits', () => {
    expect(retryInWords('interrupted', '2026-11-29T09:05:00.000Z')).to.match(
      /^The last attempt was interrupted: the instance running it stopped\./,
    );
    const later = retryInWords('failed', '2026-11-29T09:05:00.000Z', new Date('2026-11-29T09:00:00.000Z'));
    expect(later).to.match(/^The last attempt failed for a temporary reason\. It is tried again just now \(.+\)\.$/);
  });

  it('counts the failed calls of a finished run in words', () => {
    expect(failedCallsInWords(1)).to.equal(
      'It finished, but one of its tool calls failed: what it did may be incomplete. The transcript below shows each error.',
    );
    expect(failedCallsInWords(3)).to.contain('but 3 of its tool calls failed');
  });

  it('says why a transcript is empty: still going, never started, or said nothing', () => {
    expect(silentTranscript('running')).to.equal('Nothing said yet.');
    expect(silentTranscript('queued')).to.equal('Nothing said yet.');
    expect(silentTranscript('skipped')).to.equal('It never started.');
    expect(silentTranscript('succeeded')).to.equal('This run said nothing.');
  });
});
