import type { UIMessage } from 'ai';
import { MessageView, laterResultsOf } from './message-view.js';
import { NoticeBanner, OpenFailed, PageFrame } from './page.js';
import { hrefOf } from './route.js';
import { RunAttempts } from './run-attempts.js';
import { RunPreviews } from './run-previews.js';
import { automationName, runDetail } from './run-shapes.js';
import {
  TERMINAL_RUN_STATES,
  causeInWords,
  failedCallsInWords,
  resumedAttempt,
  retryInWords,
  runStatus,
  runTitle,
  silentTranscript,
} from './run-status.js';
import { RunWebhookLog } from './run-webhook-log.js';
import { useSession } from './session.js';
import { dateTime, relativeTime } from './time.js';
import { useLoad } from './use-load.js';
import { useRunActions } from './use-run-actions.js';
import { wire } from './wire.js';

/**
 * One run of an automation: its state, each attempt (a retry after a temporary failure, or after
 * the instance running it stopped, is an attempt of its own), what a dry run previewed instead of doing, the completion webhook's
 * delivery log, what the agent said and did (the transcript), and Stop, Run again and Dry run.
 */
export function RunPage({ runId }: { runId: string }) {
  const { epoch } = useSession();
  const run = useLoad((signal) => wire('GET', `/runs/${encodeURIComponent(runId)}`, { schema: runDetail, signal }), [runId, epoch], 2000);
  const automationId = run.data?.automationId;
  const automation = useLoad(
    (signal) =>
      automationId
        ? wire('GET', `/automations/${encodeURIComponent(automationId)}`, { schema: automationName, signal })
        : Promise.resolve(null),
    [automationId],
  );
  const { notice, busy, stop, rerun, dryRun } = useRunActions(runId, automationId, run.reload);

  if (run.error && !run.data) return <OpenFailed noun="Run" gone="It may have been removed, or it is not yours." loaded={run} />;
  if (!run.data)
    return (
      <PageFrame title={<span className="skeleton-text" aria-label="Loading" />}>
        <div className="skeleton-card tall" />
      </PageFrame>
    );

  const r = run.data;
  const live = !TERMINAL_RUN_STATES.has(r.state);
  const status = runStatus(r);
  const failedCalls = r.failedCalls ?? 0;
  const messages = r.messages as unknown as UIMessage[];
  const attempts = r.attempts ?? [];
  const lastAttempt = attempts[attempts.length - 1];
  const resumed = resumedAttempt(attempts);
  const name = automation.data?.name;

  return (
    <PageFrame
      title={runTitle(name, r.dryRun)}
      actions={
        <>
          {live ? (
            <button
              type="button"
              className="button small danger"
              disabled={busy !== null || Boolean(r.stopRequestedAt)}
              onClick={() => void stop()}
            >
              {r.stopRequestedAt ? 'Stopping…' : 'Stop'}
            </button>
          ) : (
            <button type="button" className="button small secondary" disabled={busy !== null} onClick={() => void rerun()}>
              {busy === 'rerun' ? 'Starting…' : r.dryRun ? 'Dry run again' : 'Run again'}
            </button>
          )}
          {/* A dry run's own "Dry run again" is the one dry-run control it needs. */}
          {automation.data && !r.dryRun ? (
            <button type="button" className="button small secondary" disabled={busy !== null} onClick={() => void dryRun()}>
              {busy === 'dry-run' ? 'Trying…' : 'Dry run'}
            </button>
          ) : null}
        </>
      }
    >
      <div className="run-summary card" data-run-id={r.id} data-state={r.state}>
        <span className={`run-state ${status.tone}`} data-run-status={status.tone}>
          {status.label}
        </span>
        {r.dryRun ? <span className="badge warn">Dry run: nothing was changed</span> : null}
        <span title={dateTime(r.createdAt)}>Started {relativeTime(r.startedAt ?? r.createdAt)}</span>
        {causeInWords(r.cause) ? <span>{causeInWords(r.cause)}</span> : null}
        {r.cause?.kind === 'rerun' && r.cause.of ? <a href={hrefOf({ name: 'run', runId: r.cause.of })}>The run it repeats</a> : null}
        {r.endedAt ? <span title={dateTime(r.endedAt)}>Ended {relativeTime(r.endedAt)}</span> : null}
        <a href={hrefOf({ name: 'automations' })}>All automations</a>
      </div>
      {r.state === 'waiting' ? (
        <p className="banner warn" role="status">
          This run waits for your answer. <a href={hrefOf({ name: 'approvals' })}>Answer in Approvals</a>
        </p>
      ) : null}
      {r.state === 'skipped' ? (
        <p className="banner" role="status" data-skipped>
          Skipped: it arrived while its automation was already running as many runs as it allows, and it skips the ones that arrive then.
        </p>
      ) : null}
      {r.state === 'queued' && r.nextAttemptAt ? (
        <p className="banner warn" role="status" data-next-attempt>
          {retryInWords(lastAttempt?.outcome, r.nextAttemptAt)}
        </p>
      ) : live && resumed ? (
        <p className="banner" role="status" data-resumed>
          Attempt {resumed.number} was interrupted when the instance running it stopped. Attempt {resumed.number + 1} goes on after the
          calls it had finished; none of them runs twice.
        </p>
      ) : null}
      {r.state === 'succeeded' && failedCalls > 0 ? (
        <p className="banner warn" role="status" data-failed-calls={failedCalls}>
          {failedCallsInWords(failedCalls)}
        </p>
      ) : null}
      {r.error ? (
        <p className="banner error" role="alert">
          {r.error}
        </p>
      ) : null}
      <NoticeBanner notice={notice} />
      {r.dryRun ? <RunPreviews previews={r.previews ?? []} live={live} /> : null}
      {attempts.length > 1 || r.nextAttemptAt ? <RunAttempts attempts={attempts} /> : null}
      {r.webhook ? <RunWebhookLog webhook={r.webhook} /> : null}
      <section className="transcript" aria-label="Transcript">
        <h2 className="section-heading">Transcript</h2>
        {messages.length === 0 ? <p className="muted">{silentTranscript(r.state)}</p> : null}
        <div className="chat-column transcript-column">
          {messages.map((message) => (
            <MessageView key={message.id} message={message} laterResults={laterResultsOf(messages)} streaming={false} />
          ))}
        </div>
      </section>
    </PageFrame>
  );
}
