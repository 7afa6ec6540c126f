import { useState } from 'react';
import { z } from 'zod';
import type { UIMessage } from 'ai';
import { MessageView, laterResultsOf } from './message-view.js';
import { NoticeBanner, OpenFailed, PageFrame, type Notice } from './page.js';
import { RiskBadge } from './risk-badge.js';
import { hrefOf, navigate } from './route.js';
import { useSession } from './session.js';
import { dateTime, relativeTime } from './time.js';
import { useLoad } from './use-load.js';
import { describeError, wire } from './wire.js';

const attempt = z.object({
  number: z.number(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  outcome: z.string().nullable(),
  error: z.string().nullable(),
  retryAt: z.string().nullable(),
});
const previewed = z.object({ toolCallId: z.string(), tool: z.string(), risk: z.string(), egress: z.boolean(), preview: z.string() });
const webhookLog = z.object({
  id: z.string(),
  url: z.string(),
  type: z.string(),
  state: z.string(),
  nextAttemptAt: z.string().nullable(),
  attempts: z.array(
    z.object({ number: z.number(), at: z.string(), status: z.number().nullable(), error: z.string().nullable(), durationMs: z.number() }),
  ),
});
/** A run as the wire lists it; its page reads more (`runDetail`). */
export const runSummary = z.object({
  id: z.string(),
  automationId: z.string(),
  state: z.string(),
  createdAt: z.string(),
  startedAt: z.string().nullable().optional(),
  endedAt: z.string().nullable().optional(),
  stopRequestedAt: z.string().nullable().optional(),
  ending: z.string().nullable().optional(),
  error: z.string().nullable().optional(),
  cause: z.object({ kind: z.string(), of: z.string().optional() }).passthrough().optional(),
  dryRun: z.boolean().optional(),
  nextAttemptAt: z.string().nullable().optional(),
});
const runDetail = runSummary.extend({
  attempts: z.array(attempt).optional(),
  previews: z.array(previewed).optional(),
  webhook: webhookLog.nullable().optional(),
  messages: z.array(z.object({ id: z.string(), role: z.string(), parts: z.array(z.object({ type: z.string() }).passthrough()) })),
});
type RunDetail = z.output<typeof runDetail>;
const automationName = z.object({ name: z.string() });
const startedRun = z.object({ id: z.string() });

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

const OUTCOME_LABEL: Readonly<Record<string, string>> = {
  succeeded: 'Succeeded',
  failed: 'Failed',
  cancelled: 'Stopped',
  interrupted: 'Interrupted',
};

const DELIVERY_LABEL: Readonly<Record<string, string>> = { pending: 'Sending', delivered: 'Delivered', failed: 'Not delivered' };

/** Why the run started, in words. */
function causeInWords(cause: RunDetail['cause']): string | null {
  switch (cause?.kind) {
    case 'schedule':
      return 'On its schedule';
    case 'webhook':
      return 'By a webhook';
    case 'rerun':
      return 'Run again by you';
    case 'dry-run':
      return 'A dry run you started';
    default:
      return null;
  }
}

/**
 * One run of an automation: its state, each attempt (a retry after a temporary failure is an
 * attempt of its own), what a dry run previewed instead of doing, the completion webhook's
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
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState<'stop' | 'rerun' | 'dry-run' | null>(null);

  if (run.error && !run.data) return <OpenFailed noun="Run" gone="It may have been removed, or it is not yours." loaded={run} />;
  if (!run.data)
    return (
      <PageFrame title={<span className="skeleton-text" aria-label="Loading" />}>
        <div className="skeleton-card tall" />
      </PageFrame>
    );

  const r = run.data;
  const live = !TERMINAL_RUN_STATES.has(r.state);
  const messages = r.messages as unknown as UIMessage[];
  const attempts = r.attempts ?? [];
  const previews = r.previews ?? [];
  const act = async (what: 'stop' | 'rerun' | 'dry-run', work: () => Promise<void>) => {
    setBusy(what);
    setNotice(null);
    try {
      await work();
    } catch (caught) {
      setNotice({ tone: 'error', text: describeError(caught) });
    } finally {
      setBusy(null);
    }
  };
  const stop = () =>
    act('stop', async () => {
      await wire('POST', `/runs/${encodeURIComponent(r.id)}/stop`, { body: {} });
      setNotice({ tone: 'info', text: 'Stopping: the current step finishes, then the run ends.' });
      run.reload();
    });
  const rerun = () =>
    act('rerun', async () => {
      const again = await wire('POST', `/runs/${encodeURIComponent(r.id)}/rerun`, { body: {}, schema: startedRun });
      navigate({ name: 'run', runId: again.id });
    });
  const dryRun = () =>
    act('dry-run', async () => {
      const tried = await wire('POST', `/automations/${encodeURIComponent(r.automationId)}/dry-run`, { body: {}, schema: startedRun });
      navigate({ name: 'run', runId: tried.id });
    });
  const name = automation.data?.name;

  return (
    <PageFrame
      title={name ? `${r.dryRun ? 'Dry run' : 'Run'} of “${name}”` : r.dryRun ? 'Dry run' : 'Run'}
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
          {automation.data ? (
            <button type="button" className="button small secondary" disabled={busy !== null} onClick={() => void dryRun()}>
              {busy === 'dry-run' ? 'Trying…' : 'Dry run'}
            </button>
          ) : null}
        </>
      }
    >
      <div className="run-summary card" data-run-id={r.id} data-state={r.state}>
        <span className={`run-state ${r.state}`}>{r.stopRequestedAt && live ? 'Stopping' : (RUN_LABEL[r.state] ?? r.state)}</span>
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
          The last attempt failed for a temporary reason. It is tried again {relativeTime(r.nextAttemptAt)} ({dateTime(r.nextAttemptAt)}).
        </p>
      ) : null}
      {r.error ? (
        <p className="banner error" role="alert">
          {r.error}
        </p>
      ) : null}
      <NoticeBanner notice={notice} />
      {r.dryRun ? (
        <section className="run-section" aria-label="What it would have done">
          <h2 className="section-heading">What it would have done</h2>
          {previews.length === 0 ? (
            <p className="muted">{live ? 'Nothing yet.' : 'Nothing: it made no change and reached nothing outside.'}</p>
          ) : (
            <ol className="preview-list">
              {previews.map((p) => (
                <li key={p.toolCallId} className="preview" data-tool={p.tool}>
                  <span className="preview-text">{p.preview}</span>
                  <span className="preview-meta">
                    <code>{p.tool}</code> <RiskBadge risk={p.risk} egress={p.egress} />
                  </span>
                </li>
              ))}
            </ol>
          )}
        </section>
      ) : null}
      {attempts.length > 1 || r.nextAttemptAt ? (
        <section className="run-section" aria-label="Attempts">
          <h2 className="section-heading">Attempts</h2>
          <ol className="attempt-list">
            {attempts.map((a) => (
              <li key={a.number} className="attempt" data-outcome={a.outcome ?? 'going'}>
                <span className="attempt-number">Attempt {a.number}</span>
                <span className={`run-state ${a.outcome ?? 'running'}`}>
                  {a.outcome ? (OUTCOME_LABEL[a.outcome] ?? a.outcome) : 'Going on'}
                </span>
                <span className="run-time" title={dateTime(a.startedAt)}>
                  {relativeTime(a.startedAt)}
                </span>
                {a.error ? <span className="attempt-error">{a.error}</span> : null}
                {a.retryAt ? <span className="run-time">Tried again {dateTime(a.retryAt)}</span> : null}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      {r.webhook ? (
        <section className="run-section" aria-label="Completion webhook">
          <h2 className="section-heading">Completion webhook</h2>
          <p className="webhook-summary" data-webhook-state={r.webhook.state}>
            <span className={`badge ${r.webhook.state === 'delivered' ? 'ok' : r.webhook.state === 'failed' ? 'bad' : 'warn'}`}>
              {DELIVERY_LABEL[r.webhook.state] ?? r.webhook.state}
            </span>{' '}
            <code>{r.webhook.type}</code> to <span className="webhook-url">{r.webhook.url}</span>
            {r.webhook.nextAttemptAt ? <span className="muted"> · next try {dateTime(r.webhook.nextAttemptAt)}</span> : null}
          </p>
          <table className="delivery-log">
            <caption className="visually-hidden">Each attempt at delivering the completion webhook</caption>
            <thead>
              <tr>
                <th scope="col">Attempt</th>
                <th scope="col">When</th>
                <th scope="col">Answer</th>
                <th scope="col">Took</th>
              </tr>
            </thead>
            <tbody>
              {r.webhook.attempts.map((a) => (
                <tr key={a.number} data-status={a.status ?? 'none'}>
                  <td>{a.number}</td>
                  <td title={dateTime(a.at)}>{relativeTime(a.at)}</td>
                  <td>{a.status !== null ? `HTTP ${a.status}` : (a.error ?? 'No answer')}</td>
                  <td>{a.durationMs} ms</td>
                </tr>
              ))}
              {r.webhook.attempts.length === 0 ? (
                <tr>
                  <td colSpan={4} className="muted">
                    Not sent yet.
                  </td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </section>
      ) : null}
      <section className="transcript" aria-label="Transcript">
        <h2 className="section-heading">Transcript</h2>
        {messages.length === 0 ? (
          <p className="muted">{live ? 'Nothing said yet.' : r.state === 'skipped' ? 'It never started.' : 'This run said nothing.'}</p>
        ) : null}
        <div className="chat-column transcript-column">
          {messages.map((message) => (
            <MessageView key={message.id} message={message} laterResults={laterResultsOf(messages)} streaming={false} />
          ))}
        </div>
      </section>
    </PageFrame>
  );
}
