import { useState, type FormEvent } from 'react';
import { automationBody, changesOf } from './automation-changes.js';
import { savedAutomation, toolList, type Automation, type SavedAutomation } from './automation-shapes.js';
import { InlineError } from './page.js';
import { RiskBadge } from './risk-badge.js';
import { SCHEDULE_PRESETS, describeSchedule } from './schedule.js';
import { timeZones } from './time-zones.js';
import { useLoad } from './use-load.js';
import { describeError, wire } from './wire.js';

/**
 * The automation form: a new automation, or an existing one to change (the same fields, filled
 * in; only what changed is sent, so an armed automation's name, retries or webhook change without
 * disarming, and a completion-webhook secret is minted again only when its URL changed).
 */
export function AutomationForm({ existing, onSaved }: { existing?: Automation; onSaved(a: SavedAutomation): void }) {
  const [kind, setKind] = useState<'schedule' | 'webhook'>(existing?.trigger.kind ?? 'schedule');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [cron, setCron] = useState(existing?.trigger.kind === 'schedule' ? existing.trigger.cron : SCHEDULE_PRESETS[0]!.cron);
  const [timezone, setTimezone] = useState(
    () =>
      (existing?.trigger.kind === 'schedule' ? existing.trigger.timezone : undefined) ??
      (existing ? 'UTC' : Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'),
  );
  const [tools, setTools] = useState<ReadonlySet<string>>(new Set(existing?.task.tools ?? []));
  const hostTools = useLoad((signal) => wire('GET', '/tools', { schema: toolList, signal }), []);
  const schedule = describeSchedule(cron);
  const preset = SCHEDULE_PRESETS.find((p) => p.cron === cron.trim())?.cron ?? 'custom';

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (kind === 'schedule' && schedule.problem) return setError(schedule.problem);
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const notifyUrl = text('notify');
    const body = automationBody({
      name: text('name'),
      kind,
      cron,
      timezone,
      source: text('source'),
      prompt: text('prompt'),
      tools,
      retries: text('retries'),
      whenBusy: text('whenBusy'),
      notifyUrl,
    });
    setBusy(true);
    setError(null);
    try {
      if (!existing) return onSaved(await wire('POST', '/automations', { body, schema: savedAutomation }));
      const changes = changesOf(existing, body, notifyUrl);
      if (Object.keys(changes).length === 0) return onSaved(existing);
      onSaved(await wire('PATCH', `/automations/${encodeURIComponent(existing.id)}`, { body: changes, schema: savedAutomation }));
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="card form-card"
      onSubmit={(event) => void submit(event)}
      aria-label={existing ? `Edit ${existing.name}` : 'New automation'}
    >
      <div className="form-grid">
        <label>
          Name
          <input name="name" required maxLength={200} placeholder="Morning summary" defaultValue={existing?.name} autoFocus />
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
            <input
              name="source"
              required
              placeholder="demo"
              defaultValue={existing?.trigger.kind === 'webhook' ? existing.trigger.source : 'demo'}
            />
          </label>
        )}
        <label className="wide">
          Task
          <textarea
            name="prompt"
            required
            rows={3}
            placeholder="Summarise my notes and add the summary as a new note."
            defaultValue={existing?.task.prompt}
          />
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
          <select name="retries" defaultValue={String(existing?.retry?.max ?? 2)}>
            <option value="0">Do not try again</option>
            <option value="1">Try again once</option>
            <option value="2">Try again up to 2 times</option>
            <option value="5">Try again up to 5 times</option>
          </select>
        </label>
        <label>
          If the last run is still going
          <select name="whenBusy" defaultValue={existing?.concurrency?.whenBusy === 'skip' ? 'skip' : 'queue'}>
            <option value="queue">Wait for it, then run</option>
            <option value="skip">Skip this one</option>
          </select>
        </label>
        <label className="wide">
          When a run ends, tell this URL <span className="muted">(optional: a signed webhook, Standard Webhooks)</span>
          <input
            name="notify"
            type="url"
            placeholder="https://example.com/hooks/porter"
            autoComplete="off"
            spellCheck={false}
            defaultValue={existing?.notify?.url ?? ''}
          />
        </label>
      </div>
      <InlineError error={error} />
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={busy}>
          {existing ? (busy ? 'Saving…' : 'Save changes') : busy ? 'Creating…' : 'Create automation'}
        </button>
      </div>
    </form>
  );
}
