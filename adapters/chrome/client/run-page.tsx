import { useState } from 'react';
import { z } from 'zod';
import type { UIMessage } from 'ai';
import { MessageView, laterResultsOf } from './message-view.js';
import { EmptyState, PageFrame } from './page.js';
import { hrefOf } from './route.js';
import { useSession } from './session.js';
import { dateTime, relativeTime } from './time.js';
import { useLoad } from './use-load.js';
import { WireError, describeError, wire } from './wire.js';

const runDetail = z.object({
  id: z.string(),
  automationId: z.string(),
  state: z.string(),
  createdAt: z.string(),
  startedAt: z.string().nullable().optional(),
  endedAt: z.string().nullable().optional(),
  stopRequestedAt: z.string().nullable().optional(),
  ending: z.string().nullable().optional(),
  error: z.string().nullable().optional(),
  cause: z.object({ kind: z.string() }).passthrough().optional(),
  messages: z.array(z.object({ id: z.string(), role: z.string(), parts: z.array(z.object({ type: z.string() }).passthrough()) })),
});
const automationName = z.object({ name: z.string() });

export const TERMINAL_RUN_STATES = new Set(['succeeded', 'failed', 'cancelled']);

export const RUN_LABEL: Readonly<Record<string, string>> = {
  queued: 'Queued',
  running: 'Running',
  waiting: 'Waiting for approval',
  succeeded: 'Done',
  failed: 'Failed',
  cancelled: 'Stopped',
};

/** One run of an automation: its state, what the agent said and did (the transcript), and Stop while it runs. */
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
  const [notice, setNotice] = useState<{ tone: 'error' | 'info'; text: string } | null>(null);
  const [stopping, setStopping] = useState(false);

  if (run.error && !run.data) {
    const missing = run.error instanceof WireError && run.error.code === 'not-found';
    return (
      <PageFrame title="Run">
        <EmptyState
          title={missing ? 'Run not found' : 'This run could not be opened'}
          text={missing ? 'It may have been removed, or it is not yours.' : describeError(run.error)}
          onRetry={run.reload}
        />
      </PageFrame>
    );
  }
  if (!run.data)
    return (
      <PageFrame title={<span className="skeleton-text" aria-label="Loading" />}>
        <div className="skeleton-card tall" />
      </PageFrame>
    );

  const r = run.data;
  const live = !TERMINAL_RUN_STATES.has(r.state);
  const messages = r.messages as unknown as UIMessage[];
  const stop = async () => {
    setStopping(true);
    setNotice(null);
    try {
      await wire('POST', `/runs/${encodeURIComponent(r.id)}/stop`, { body: {} });
      setNotice({ tone: 'info', text: 'Stopping: the current step finishes, then the run ends.' });
      run.reload();
    } catch (caught) {
      setNotice({ tone: 'error', text: describeError(caught) });
    } finally {
      setStopping(false);
    }
  };

  return (
    <PageFrame
      title={automation.data?.name ? `Run of “${automation.data.name}”` : 'Run'}
      actions={
        live ? (
          <button
            type="button"
            className="button small danger"
            disabled={stopping || Boolean(r.stopRequestedAt)}
            onClick={() => void stop()}
          >
            {r.stopRequestedAt ? 'Stopping…' : 'Stop'}
          </button>
        ) : null
      }
    >
      <div className="run-summary card" data-run-id={r.id} data-state={r.state}>
        <span className={`run-state ${r.state}`}>{r.stopRequestedAt && live ? 'Stopping' : (RUN_LABEL[r.state] ?? r.state)}</span>
        <span title={dateTime(r.createdAt)}>Started {relativeTime(r.startedAt ?? r.createdAt)}</span>
        {r.cause ? <span>{r.cause.kind === 'schedule' ? 'On its schedule' : 'By a webhook'}</span> : null}
        {r.endedAt ? <span title={dateTime(r.endedAt)}>Ended {relativeTime(r.endedAt)}</span> : null}
        <a href={hrefOf({ name: 'automations' })}>All automations</a>
      </div>
      {r.state === 'waiting' ? (
        <p className="banner warn" role="status">
          This run waits for your answer. <a href={hrefOf({ name: 'approvals' })}>Answer in Approvals</a>
        </p>
      ) : null}
      {r.error ? (
        <p className="banner error" role="alert">
          {r.error}
        </p>
      ) : null}
      {notice ? (
        <p className={`banner ${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'}>
          {notice.text}
        </p>
      ) : null}
      <section className="transcript" aria-label="Transcript">
        <h2 className="section-heading">Transcript</h2>
        {messages.length === 0 ? <p className="muted">{live ? 'Nothing said yet.' : 'This run said nothing.'}</p> : null}
        <div className="chat-column transcript-column">
          {messages.map((message) => (
            <MessageView key={message.id} message={message} laterResults={laterResultsOf(messages)} streaming={false} />
          ))}
        </div>
      </section>
    </PageFrame>
  );
}
