import type { Run } from '../../domain/runs/run.js';
import type { CompletionWebhook } from '../../domain/runs/completion-webhook.js';
import type { RunView, WebhookDeliveryLog } from '../../ports/use-cases/runs.js';

export function runView(run: Run): RunView {
  const p = run.toPrimitives();
  return {
    id: p.id,
    automationId: p.automationId,
    state: p.state,
    owner: p.owner.subject,
    startedBy: p.startedBy,
    cause: p.cause,
    createdAt: p.createdAt,
    startedAt: p.startedAt,
    endedAt: p.endedAt,
    stopRequestedAt: p.stopRequestedAt,
    ending: p.ending,
    error: p.error,
    dryRun: p.dryRun,
    attempts: p.attempts,
    nextAttemptAt: p.nextAttemptAt,
    failedCalls: p.failedCalls,
  };
}

/** The delivery log as its owner reads it: never the secret. */
export function webhookLogView(webhook: CompletionWebhook): WebhookDeliveryLog {
  const { id, url, type, state, attempts, nextAttemptAt, createdAt } = webhook.toPrimitives();
  return { id, url, type, state, attempts, nextAttemptAt, createdAt };
}
