import { useState, type FormEvent } from 'react';
import { NAME } from './chrome-config.js';
import { z } from 'zod';
import { EmptyState, InlineError, NoticeBanner, PageFrame, type Notice } from './page.js';
import { hrefOf } from './route.js';
import { useSession } from './session.js';
import { dateTime, relativeTime } from './time.js';
import { useLoad } from './use-load.js';
import { WireError, describeError, wire } from './wire.js';
import { RiskBadge } from './risk-badge.js';
import { SCHEDULE_PRESETS, describeSchedule, scheduleInWords } from './schedule.js';
import { announceApprovalsChanged } from './page-events.js';
import { RUN_LABEL, TERMINAL_RUN_STATES, runSummary } from './run-page.js';
import { navigate } from './route.js';
import { copyText } from './clipboard.js';

const trigger = z.union([
  z.object({ kind: z.literal('schedule'), cron: z.string(), timezone: z.string().optional() }),
  z.object({ kind: z.literal('webhook'), source: z.string() }),
]);
const automation = z.object({
  id: z.string(),
  name: z.string(),
  trigger,
  task: z.object({ prompt: z.string(), tools: z.array(z.string()).optional() }),
  armed: z.boolean(),
  nextRunAt: z.string().nullable().optional(),
  concurrency: z.object({ limit: z.number(), whenBusy: z.string() }).optional(),
  notify: z.object({ url: z.string() }).nullable().optional(),
});
type Automation = z.output<typeof automation>;
const savedAutomation = automation.extend({ notifySecret: z.string().optional() });
const startedRun = z.object({ id: z.string() });
const automationList = z.object({ automations: z.array(automation), nextCursor: z.string().nullable().optional() });
const armResult = z.object({ automation, asks: z.array(z.object({ approvalId: z.string(), tool: z.string() })) });
const run = runSummary.extend({ attempts: z.array(z.object({ number: z.number() })).optional() });
type Run = z.output<typeof run>;
const runList = z.object({ runs: z.array(run), nextCursor: z.string().nullable().optional() });

/** How a run started, in a word or two. */
const CAUSE_WORDS: Readonly<Record<string, string>> = {
  schedule: 'schedule',
  webhook: 'webhook',
  rerun: 'run again',
  'dry-run': 'dry run',
};

/** Automations (a schedule or a webhook, and a task), arming and disarming, and their runs. */
export function AutomationsPage() {
  const { epoch } = useSession();
  const list = useLoad((signal) => wire('GET', '/automations', { schema: automationList, signal }), [epoch], 10_000);
  const runs = useLoad((signal) => wire('GET', '/runs', { schema: runList, signal }), [epoch], 3000);
  const [creating, setCreating] = useState(false);
  const [notice, setNotice] = useState<(Notice & { approvals?: boolean }) | null>(null);
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  const [trying, setTrying] = useState<string | null>(null);
  const off = list.error instanceof WireError && list.error.code === 'not-found';

  const act = async (run: () => Promise<{ tone: 'error' | 'info'; text: string; approvals?: boolean } | null>) => {
    setNotice(null);
    try {
      setNotice(await run());
    } catch (caught) {
      setNotice({ tone: 'error', text: describeError(caught) });
    }
    list.reload();
    runs.reload();
  };

  const arm = (a: Automation) =>
    act(async () => {
      const result = await wire('POST', `/automations/${encodeURIComponent(a.id)}/arm`, { body: {}, schema: armResult });
      if (result.asks.length === 0) return { tone: 'info', text: `“${a.name}” is armed.` };
      announceApprovalsChanged();
      return {
        tone: 'info',
        text: `“${a.name}” needs your standing permission for ${result.asks.map((ask) => ask.tool).join(', ')} before it runs on its own.`,
        approvals: true,
      };
    });
  const disarm = (a: Automation) =>
    act(async () => {
      await wire('POST', `/automations/${encodeURIComponent(a.id)}/disarm`, { body: {} });
      return { tone: 'info', text: `“${a.name}” is disarmed.` };
    });
  const remove = (a: Automation) =>
    act(async () => {
      await wire('DELETE', `/automations/${encodeURIComponent(a.id)}`);
      return null;
    });
  const dryRun = async (a: Automation) => {
    setTrying(a.id);
    setNotice(null);
    try {
      const tried = await wire('POST', `/automations/${encodeURIComponent(a.id)}/dry-run`, { body: {}, schema: startedRun });
      navigate({ name: 'run', runId: tried.id });
    } catch (caught) {
      setNotice({ tone: 'error', text: describeError(caught) });
    } finally {
      setTrying(null);
    }
  };
  const stop = (r: Run) =>
    act(async () => {
      await wire('POST', `/runs/${encodeURIComponent(r.id)}/stop`, { body: {} });
      return { tone: 'info', text: 'Stopping: the current step finishes, then the run ends.' };
    });

  const automations = list.data?.automations ?? [];
  const names = new Map(automations.map((a) => [a.id, a.name]));

  return (
    <PageFrame
      title="Automations"
      lede={`${NAME} works while you are away: on a schedule or when a webhook arrives, with only the permissions you granted ahead of time.`}
      actions={
        off ? null : (
          <button type="button" className="button small primary" onClick={() => setCreating(!creating)} aria-expanded={creating}>
            {creating ? 'Close' : 'New automation'}
          </button>
        )
      }
    >
      {off ? <EmptyState title="Automations are turned off" text="This deployment does not include automations." /> : null}
      <NoticeBanner notice={notice}>
        {notice?.approvals ? <a href={hrefOf({ name: 'approvals' })}>Answer in Approvals</a> : null}
      </NoticeBanner>
      {secret ? (
        <div className="banner warn secret-once" role="status" data-notify-secret>
          <span>
            Completion webhooks of “{secret.name}” are signed with this secret. Copy it now: it is not shown again.{' '}
            <code>{secret.value}</code>
          </span>
          <span className="banner-actions">
            <button type="button" className="button small secondary" onClick={() => void copyText(secret.value)}>
              Copy
            </button>
            <button type="button" className="button small secondary" onClick={() => setSecret(null)}>
              Done
            </button>
          </span>
        </div>
      ) : null}
      {creating ? (
        <NewAutomation
          onCreated={(a) => {
            setCreating(false);
            setNotice({ tone: 'info', text: `“${a.name}” was created. Arm it to let it run, or try it first with a dry run.` });
            if (a.notifySecret) setSecret({ name: a.name, value: a.notifySecret });
            list.reload();
          }}
        />
      ) : null}
      {list.error && !off ? (
        <EmptyState title="Automations could not be loaded" text={describeError(list.error)} onRetry={list.reload} />
      ) : null}
      {!list.data && !list.error ? <div className="skeleton-card" aria-label="Loading" /> : null}
      {list.data && automations.length === 0 && !creating ? (
        <EmptyState
          title="No automations yet"
          text={`Create one to have ${NAME} do something every morning, or whenever a webhook arrives.`}
        />
      ) : null}
      <ul className="card-list">
        {automations.map((a) => (
          <li key={a.id} className="card automation" data-automation-id={a.id}>
            <div className="card-row">
              <div>
                <div className="card-title">{a.name}</div>
                <div className="card-meta">
                  <span className={`badge ${a.armed ? 'ok' : ''}`}>{a.armed ? 'Armed' : 'Disarmed'}</span>
                  <span>
                    {a.trigger.kind === 'schedule' ? (
                      <span title={a.trigger.cron}>{scheduleInWords(a.trigger.cron, a.trigger.timezone)}</span>
                    ) : (
                      `Webhook “${a.trigger.source}”`
                    )}
                  </span>
                  {a.armed && a.nextRunAt ? <span>Next {dateTime(a.nextRunAt)}</span> : null}
                  {a.concurrency && (a.concurrency.limit > 1 || a.concurrency.whenBusy === 'skip') ? (
                    <span>
                      {a.concurrency.limit} at a time{a.concurrency.whenBusy === 'skip' ? ', skips the rest' : ''}
                    </span>
                  ) : null}
                  {a.notify ? <span>Notifies when a run ends</span> : null}
                </div>
              </div>
              <div className="card-actions">
                <button
                  type="button"
                  className="button small secondary"
                  disabled={trying !== null}
                  onClick={() => void dryRun(a)}
                  aria-label={`Dry run ${a.name}`}
                  title="Run the task now without changing anything: writes and anything reaching outside are only previewed"
                >
                  {trying === a.id ? 'Trying…' : 'Dry run'}
                </button>
                {a.armed ? (
                  <button type="button" className="button small secondary" onClick={() => void disarm(a)}>
                    Disarm
                  </button>
                ) : (
                  <button type="button" className="button small primary" onClick={() => void arm(a)}>
                    Arm
                  </button>
                )}
                <button type="button" className="button small secondary" onClick={() => void remove(a)} aria-label={`Delete ${a.name}`}>
                  Delete
                </button>
              </div>
            </div>
            <p className="card-text">{a.task.prompt}</p>
          </li>
        ))}
      </ul>
      {!off ? (
        <section className="runs" aria-label="Runs">
          <h2 className="section-heading">Runs</h2>
          {runs.data && runs.data.runs.length === 0 ? <p className="muted">No runs yet.</p> : null}
          <ul className="run-list">
            {runs.data?.runs.map((r) => {
              const live = !TERMINAL_RUN_STATES.has(r.state);
              return (
                <li key={r.id} className="run" data-run-id={r.id} data-state={r.state}>
                  <span className={`run-state ${r.state}`}>{runLabel(r)}</span>
                  <a className="run-name" href={hrefOf({ name: 'run', runId: r.id })}>
                    {names.get(r.automationId) ?? r.automationId}
                  </a>
                  {r.dryRun ? <span className="badge warn">Dry run</span> : null}
                  <span className="run-time" title={dateTime(r.createdAt)}>
                    {relativeTime(r.createdAt)}
                    {r.cause ? ` · ${CAUSE_WORDS[r.cause.kind] ?? r.cause.kind}` : ''}
                    {(r.attempts?.length ?? 0) > 1 ? ` · attempt ${r.attempts!.length}` : ''}
                  </span>
                  {r.error ? <span className="run-error">{r.error}</span> : null}
                  {live ? (
                    <button
                      type="button"
                      className="button small secondary"
                      disabled={Boolean(r.stopRequestedAt)}
                      onClick={() => void stop(r)}
                    >
                      {r.stopRequestedAt ? 'Stopping…' : 'Stop'}
                    </button>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
    </PageFrame>
  );
}

function runLabel(r: Run): string {
  if (r.state === 'running' && r.stopRequestedAt) return 'Stopping';
  if (r.state === 'queued' && r.nextAttemptAt) return 'Retrying';
  return RUN_LABEL[r.state] ?? r.state;
}

function NewAutomation({ onCreated }: { onCreated(a: z.output<typeof savedAutomation>): void }) {
  const [kind, setKind] = useState<'schedule' | 'webhook'>('schedule');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [cron, setCron] = useState(SCHEDULE_PRESETS[0]!.cron);
  const [timezone, setTimezone] = useState(() => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
  const [tools, setTools] = useState<ReadonlySet<string>>(new Set());
  const hostTools = useLoad((signal) => wire('GET', '/tools', { schema: toolList, signal }), []);
  const schedule = describeSchedule(cron);
  const preset = SCHEDULE_PRESETS.find((p) => p.cron === cron.trim())?.cron ?? 'custom';

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (kind === 'schedule' && schedule.problem) return setError(schedule.problem);
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const notifyUrl = text('notify');
    const body = {
      name: text('name'),
      trigger: kind === 'schedule' ? { kind, cron: cron.trim(), timezone } : { kind, source: text('source') },
      task: { prompt: text('prompt'), ...(tools.size ? { tools: [...tools] } : {}) },
      retry: { max: Number(text('retries')) },
      concurrency: { limit: 1, whenBusy: text('whenBusy') === 'skip' ? 'skip' : 'queue' },
      ...(notifyUrl ? { notify: { url: notifyUrl } } : {}),
    };
    setBusy(true);
    setError(null);
    try {
      onCreated(await wire('POST', '/automations', { body, schema: savedAutomation }));
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card form-card" onSubmit={(event) => void submit(event)} aria-label="New automation">
      <div className="form-grid">
        <label>
          Name
          <input name="name" required maxLength={200} placeholder="Morning summary" autoFocus />
        </label>
        <fieldset className="segmented">
          <legend>Runs</legend>
          <label>
            <input type="radio" name="kind" checked={kind === 'schedule'} onChange={() => setKind('schedule')} /> On a schedule
          </label>
          <label>
            <input type="radio" name="kind" checked={kind === 'webhook'} onChange={() => setKind('webhook')} /> When a webhook arrives
          </label>
        </fieldset>
        {kind === 'schedule' ? (
          <>
            <label>
              How often
              <select value={preset} onChange={(event) => event.target.value !== 'custom' && setCron(event.target.value)}>
                {SCHEDULE_PRESETS.map((p) => (
                  <option key={p.cron} value={p.cron}>
                    {p.label}
                  </option>
                ))}
                <option value="custom">Custom (cron)</option>
              </select>
            </label>
            <label>
              Time zone
              <select name="timezone" value={timezone} onChange={(event) => setTimezone(event.target.value)}>
                {timeZones(timezone).map((zone) => (
                  <option key={zone} value={zone}>
                    {zone.replace(/_/g, ' ')}
                  </option>
                ))}
              </select>
            </label>
            <label className="wide">
              Schedule <span className="muted">(cron: minute, hour, day of the month, month, day of the week)</span>
              <input
                name="cron"
                value={cron}
                onChange={(event) => {
                  setCron(event.target.value);
                  setError(null);
                }}
                required
                spellCheck={false}
                autoComplete="off"
                aria-invalid={schedule.problem ? true : undefined}
                aria-describedby="cron-preview"
                className="mono"
              />
              <span id="cron-preview" className={schedule.problem ? 'field-error' : 'field-hint'} data-cron-preview aria-live="polite">
                {schedule.problem ?? `${schedule.text}, ${timezone.replace(/_/g, ' ')} time`}
              </span>
            </label>
          </>
        ) : (
          <label>
            Webhook source
            <input name="source" required placeholder="demo" defaultValue="demo" />
          </label>
        )}
        <label className="wide">
          Task
          <textarea name="prompt" required rows={3} placeholder="Summarise my notes and add the summary as a new note." />
        </label>
        <fieldset className="wide tool-picker">
          <legend>
            Tools it may use while you are away <span className="muted">(you will be asked to allow each one when you arm it)</span>
          </legend>
          {hostTools.data?.tools.length === 0 ? <p className="muted">This host has no tools.</p> : null}
          {hostTools.error ? <p className="muted">The tools could not be listed: {describeError(hostTools.error)}</p> : null}
          <ul className="tool-options">
            {hostTools.data?.tools.map((t) => (
              <li key={t.name}>
                <label className="tool-option">
                  <input
                    type="checkbox"
                    name="tools"
                    value={t.name}
                    checked={tools.has(t.name)}
                    onChange={(event) => {
                      const next = new Set(tools);
                      if (event.target.checked) next.add(t.name);
                      else next.delete(t.name);
                      setTools(next);
                    }}
                  />
                  <span className="tool-option-text">
                    <code>{t.name}</code> <RiskBadge risk={t.risk} egress={t.egress} />
                    <span className="tool-option-description">{t.description}</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        <label>
          After a temporary failure
          <select name="retries" defaultValue="2">
            <option value="0">Do not try again</option>
            <option value="1">Try again once</option>
            <option value="2">Try again up to 2 times</option>
            <option value="5">Try again up to 5 times</option>
          </select>
        </label>
        <label>
          If the last run is still going
          <select name="whenBusy" defaultValue="queue">
            <option value="queue">Wait for it, then run</option>
            <option value="skip">Skip this one</option>
          </select>
        </label>
        <label className="wide">
          When a run ends, tell this URL <span className="muted">(optional: a signed webhook, Standard Webhooks)</span>
          <input name="notify" type="url" placeholder="https://example.com/hooks/porter" autoComplete="off" spellCheck={false} />
        </label>
      </div>
      <InlineError error={error} />
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create automation'}
        </button>
      </div>
    </form>
  );
}

const toolList = z.object({
  tools: z.array(z.object({ name: z.string(), description: z.string(), risk: z.string(), egress: z.boolean().optional() })),
});

/** The time zones this browser knows (IANA names), with the chosen one and UTC always there. */
function timeZones(chosen: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([...known, 'UTC', chosen])].sort();
}
