import { CompletionWebhook, completionEventOf } from '../../domain/runs/completion-webhook.js';
import type { Run } from '../../domain/runs/run.js';
import type { Clock } from '../../ports/clock.js';
import type { WebhookDispatcher } from '../../ports/scheduler.js';
import type { AutomationBook } from '../automations/automation-book.js';
import { completionWebhookId, type CompletionWebhookBook } from './completion-webhook-book.js';
import type { RunBook } from './run-book.js';
import { runSummary } from './run-summary.js';

/** What RecordCompletionWebhook is built from. */
export interface RecordCompletionWebhookDeps {
  readonly webhooks: CompletionWebhookBook;
  readonly automations: AutomationBook;
  readonly runs: RunBook;
  readonly dispatcher: WebhookDispatcher;
  readonly clock: Clock;
}

/**
 * When a run of an automation with `notify` ends (succeeded, failed or cancelled; not skipped, not
 * a dry run), its completion webhook is recorded once — body fixed now, the endpoint's sealed
 * secret copied with it — and handed to a sender. The body is Standard Webhooks' shape:
 * `{type, timestamp, data: {runId, automationId, state, startedAt, endedAt, summary}}`.
 */
export class RecordCompletionWebhook {
  constructor(private readonly deps: RecordCompletionWebhookDeps) {}

  async forEnded(run: Run): Promise<void> {
    const type = completionEventOf(run.state);
    if (!type || run.dryRun) return;
    const notify = (await this.deps.automations.find(run.automationId))?.automation.notify;
    if (!notify) return;
    const p = run.toPrimitives();
    const body = JSON.stringify({
      type,
      timestamp: p.endedAt,
      data: {
        runId: p.id,
        automationId: p.automationId,
        state: p.state,
        startedAt: p.startedAt,
        endedAt: p.endedAt,
        summary: runSummary(run, await this.deps.runs.messagesOf(run.id)),
      },
    });
    const webhook = CompletionWebhook.record({
      id: completionWebhookId(run.id),
      runId: run.id,
      automationId: run.automationId,
      owner: run.owner.subject,
      url: notify.url,
      sealedSecret: notify.sealedSecret,
      type,
      body,
      createdAt: this.deps.clock.now().toISOString(),
    });
    if (await this.deps.webhooks.addIfAbsent(webhook)) await this.deps.dispatcher.dispatch([webhook.id]);
  }
}
