import type { AttemptReport } from '../../domain/runs/completion-webhook.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { WebhookDispatcher } from '../../ports/scheduler.js';
import type { SecretBox, WebhookSender } from '../../ports/webhook-sender.js';
import type { CompletionWebhookBook } from './completion-webhook-book.js';

export interface WebhookDeliverySettings {
  /** Who this sender is (instance and process), written into the attempt's lease. */
  readonly holder: string;
  /** How long one attempt may take before another sender may take it over. */
  readonly leaseMs: number;
  /** The waits before each retry after a failed attempt; when they run out the webhook fails. */
  readonly retryDelaysMs: ReadonlyArray<number>;
}

/** What DeliverCompletionWebhook is built from. */
export interface DeliverCompletionWebhookDeps {
  readonly webhooks: CompletionWebhookBook;
  readonly sender: WebhookSender;
  readonly secrets: SecretBox;
  readonly dispatcher: WebhookDispatcher;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly settings: WebhookDeliverySettings;
}

/**
 * One attempt at a completion webhook, whichever instance makes it: the sender takes the attempt
 * (a lease, by compare-and-swap, so racing senders make it once), signs the fixed body with the
 * endpoint's secret, sends it through the egress guard and writes what the receiver answered into
 * the log. A non-2xx answer (or none) is tried again after the next delay, on the job engine.
 */
export class DeliverCompletionWebhook {
  constructor(private readonly deps: DeliverCompletionWebhookDeps) {}

  async execute(webhookId: string): Promise<void> {
    const loaded = await this.deps.webhooks.find(webhookId);
    const now = this.deps.clock.now();
    const taken = loaded?.webhook.begin(
      this.deps.settings.holder,
      now.toISOString(),
      new Date(now.getTime() + this.deps.settings.leaseMs).toISOString(),
    );
    if (!loaded) return;
    if (!taken) {
      // A timer may fire a millisecond before the attempt is due by the clock: hand it over again
      // for its time rather than leave it to the next sweep.
      const next = loaded.webhook.state === 'pending' ? loaded.webhook.nextAttemptAt : null;
      if (next !== null && Date.parse(next) > now.getTime()) await this.deps.dispatcher.dispatch([webhookId], new Date(next));
      return;
    }
    const held = await this.deps.webhooks.swap(loaded, taken);
    if (!held) return;

    const webhook = held.webhook;
    const secret = this.deps.secrets.open(webhook.sealedSecret, webhook.automationId);
    const report: AttemptReport = secret
      ? await this.send(webhook.url, secret, webhook.id, webhook.body)
      : {
          at: now.toISOString(),
          status: null,
          error: "The endpoint's secret cannot be opened with this deployment's PORTER_SECRET; set notify again to mint a new one",
          durationMs: 0,
          retryable: false,
        };
    const delay = this.deps.settings.retryDelaysMs[webhook.attempts.length];
    const retryAt = delay === undefined ? null : new Date(Date.parse(report.at) + delay).toISOString();
    const after = held.webhook.attempted(this.deps.settings.holder, report, retryAt);
    if (!after || !(await this.deps.webhooks.swap(held, after))) {
      this.deps.logger.warn('a completion webhook attempt could not be recorded', { webhookId });
      return;
    }
    if (after.state === 'pending' && after.nextAttemptAt) await this.deps.dispatcher.dispatch([webhookId], new Date(after.nextAttemptAt));
    if (after.state === 'failed')
      this.deps.logger.warn('a completion webhook gave up', { webhookId, runId: after.runId, attempts: after.attempts.length });
  }

  private async send(url: string, secret: string, id: string, body: string): Promise<AttemptReport> {
    const at = this.deps.clock.now();
    const result = await this.deps.sender.send({ url, secret, id, timestamp: at, body });
    return { at: at.toISOString(), ...result };
  }
}
