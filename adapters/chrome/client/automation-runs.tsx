import type { ListedRun } from './automation-shapes.js';
import { runMetaInWords } from './automation-words.js';
import { hrefOf } from './route.js';
import { TERMINAL_RUN_STATES, runStatus } from './run-status.js';
import { dateTime, relativeTime } from './time.js';

/** The runs of the person's automations, newest first, each opening its page; a live one can be stopped. */
export function AutomationRuns({
  runs,
  names,
  onStop,
}: {
  runs: ReadonlyArray<ListedRun> | undefined;
  names: ReadonlyMap<string, string>;
  onStop(run: ListedRun): void;
}) {
  return (
    <section className="runs" aria-label="Runs">
      <h2 className="section-heading">Runs</h2>
      {runs && runs.length === 0 ? <p className="muted">No runs yet.</p> : null}
      <ul className="run-list">
        {runs?.map((r) => {
          const live = !TERMINAL_RUN_STATES.has(r.state);
          const status = runStatus(r);
          return (
            <li key={r.id} className="run" data-run-id={r.id} data-state={r.state}>
              <span className={`run-state ${status.tone}`} data-run-status={status.tone}>
                {status.label}
              </span>
              <a className="run-name" href={hrefOf({ name: 'run', runId: r.id })}>
                {names.get(r.automationId) ?? r.automationId}
              </a>
              {r.dryRun ? <span className="badge warn">Dry run</span> : null}
              <span className="run-time" title={dateTime(r.createdAt)}>
                {relativeTime(r.createdAt)}
                {runMetaInWords(r)}
              </span>
              {r.error ? <span className="run-error">{r.error}</span> : null}
              {live ? (
                <button type="button" className="button small secondary" disabled={Boolean(r.stopRequestedAt)} onClick={() => onStop(r)}>
                  {r.stopRequestedAt ? 'Stopping…' : 'Stop'}
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
