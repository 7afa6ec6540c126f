import type { RunWebhookLog as WebhookLog } from './run-shapes.js';
import { DELIVERY_LABEL } from './run-status.js';
import { dateTime, relativeTime } from './time.js';

/** The completion webhook's delivery: where it stands, where it goes, and each attempt's answer. */
export function RunWebhookLog({ webhook }: { webhook: WebhookLog }) {
  return (
    <section className="run-section" aria-label="Completion webhook">
      <h2 className="section-heading">Completion webhook</h2>
      <p className="webhook-summary" data-webhook-state={webhook.state}>
        <span className={`badge ${webhook.state === 'delivered' ? 'ok' : webhook.state === 'failed' ? 'bad' : 'warn'}`}>
          {DELIVERY_LABEL[webhook.state] ?? webhook.state}
        </span>{' '}
        <code>{webhook.type}</code> to <span className="webhook-url">{webhook.url}</span>
        {webhook.nextAttemptAt ? <span className="muted"> · next try {dateTime(webhook.nextAttemptAt)}</span> : null}
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
          {webhook.attempts.map((a) => (
            <tr key={a.number} data-status={a.status ?? 'none'}>
              <td>{a.number}</td>
              <td title={dateTime(a.at)}>{relativeTime(a.at)}</td>
              <td>{a.status !== null ? `HTTP ${a.status}` : (a.error ?? 'No answer')}</td>
              <td>{a.durationMs} ms</td>
            </tr>
          ))}
          {webhook.attempts.length === 0 ? (
            <tr>
              <td colSpan={4} className="muted">
                Not sent yet.
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </section>
  );
}
