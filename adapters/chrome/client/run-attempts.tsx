import type { RunAttempt } from './run-shapes.js';
import { OUTCOME_LABEL } from './run-status.js';
import { dateTime, relativeTime } from './time.js';

/**
 * A run's attempts, each with how it ended, its error and when it was tried again (a retry after
 * a temporary failure, or after the instance running it stopped, is an attempt of its own).
 */
export function RunAttempts({ attempts }: { attempts: ReadonlyArray<RunAttempt> }) {
  return (
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
            {a.retryAt ? (
              <span className="run-time">
                {a.outcome === 'interrupted'
                  ? `Its instance stopped; tried again ${dateTime(a.retryAt)}, after the calls it had finished`
                  : `Tried again ${dateTime(a.retryAt)}`}
              </span>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
