import type { ReactNode } from 'react';
import type { Automation } from './automation-shapes.js';
import { concurrencyInWords } from './automation-words.js';
import { scheduleInWords } from './schedule.js';
import { dateTime } from './time.js';

/** What an automation's card can do: each of its buttons, and whether its edit form is open. */
export interface AutomationCardActions {
  readonly trying: string | null;
  readonly editing: boolean;
  runNow(a: Automation): void;
  dryRun(a: Automation): void;
  arm(a: Automation): void;
  disarm(a: Automation): void;
  remove(a: Automation): void;
  toggleEdit(a: Automation): void;
}

/** One automation: armed or not, when it runs, what it does, its buttons, and under them its edit form when open (`editor`). */
export function AutomationCard({
  automation: a,
  actions,
  editor,
}: {
  automation: Automation;
  actions: AutomationCardActions;
  editor?: ReactNode;
}) {
  const { trying, editing } = actions;
  const concurrency = concurrencyInWords(a.concurrency);
  return (
    <li className="card automation" data-automation-id={a.id}>
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
            {concurrency ? <span>{concurrency}</span> : null}
            {a.notify ? <span>Notifies when a run ends</span> : null}
          </div>
        </div>
        <div className="card-actions">
          <button
            type="button"
            className="button small primary"
            disabled={trying !== null}
            onClick={() => actions.runNow(a)}
            aria-label={`Run now: ${a.name}`}
            title="Start a real run now, armed or not: it acts with the permissions you granted it"
          >
            Run now
          </button>
          <button
            type="button"
            className="button small secondary"
            disabled={trying !== null}
            onClick={() => actions.dryRun(a)}
            aria-label={`Dry run ${a.name}`}
            title="Run the task now without changing anything: writes and anything reaching outside are only previewed"
          >
            {trying === a.id ? 'Trying…' : 'Dry run'}
          </button>
          {a.armed ? (
            <button type="button" className="button small secondary" onClick={() => actions.disarm(a)}>
              Disarm
            </button>
          ) : (
            <button type="button" className="button small secondary" onClick={() => actions.arm(a)}>
              Arm
            </button>
          )}
          <button
            type="button"
            className="button small secondary"
            onClick={() => actions.toggleEdit(a)}
            aria-expanded={editing}
            aria-label={`Edit ${a.name}`}
          >
            {editing ? 'Close' : 'Edit'}
          </button>
          <button type="button" className="button small secondary" onClick={() => actions.remove(a)} aria-label={`Delete ${a.name}`}>
            Delete
          </button>
        </div>
      </div>
      <p className="card-text">{a.task.prompt}</p>
      {editor}
    </li>
  );
}
