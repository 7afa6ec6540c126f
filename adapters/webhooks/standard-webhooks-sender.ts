import { DomainError } from '../../domain/errors.js';
import { EGRESS_REFUSED } from '../../domain/guard/egress.js';
import type { Egress } from '../../ports/egress.js';
import type { OutboundWebhook, SendResult, WebhookSender } from '../../ports/webhook-sender.js';
import { standardWebhookHeaders } from './standard-webhooks-signature.js';
import { mintStandardWebhookSecret } from './standard-webhooks-verifier.js';

/**
 * Sends webhooks as the Standard Webhooks specification describes them: a POST of the JSON body
 * with `webhook-id`, `webhook-timestamp` (seconds) and `webhook-signature` (`v1,` and the base64
 * HMAC-SHA256 of `id.timestamp.body` under the secret's bytes), through the egress guard (so a
 * receiver on a loopback or private address is refused unless the composition allows it), without
 * following redirects, within a timeout. Interoperability with the `standardwebhooks` library is
 * proven in test/adapters/webhooks.
 */
export class StandardWebhooksSender implements WebhookSender {
  constructor(
    private readonly egress: Egress,
    private readonly timeoutMs: number,
  ) {}

  mintSecret(): string {
    return mintStandardWebhookSecret();
  }

  async send(webhook: OutboundWebhook): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const response = await this.egress.fetch(webhook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...standardWebhookHeaders(webhook.secret, webhook.id, webhook.timestamp, webhook.body),
        },
        body: webhook.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      // The answer's body is not read: only its status counts.
      await response.body?.cancel().catch(() => undefined);
      const ok = response.status >= 200 && response.status < 300;
      return {
        status: response.status,
        error: ok ? null : `The receiver answered ${response.status}`,
        durationMs: elapsed(),
        retryable: true,
      };
    } catch (error) {
      if (error instanceof DomainError && error.details?.reason === EGRESS_REFUSED)
        return { status: null, error: error.message, durationMs: elapsed(), retryable: false };
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      const reason = timedOut
        ? `The receiver did not answer within ${Math.round(this.timeoutMs / 1000)} s`
        : `The receiver could not be reached (${error instanceof Error ? error.message : String(error)})`;
      return { status: null, error: reason, durationMs: elapsed(), retryable: true };
    }
  }

  async refusal(url: string): Promise<string | null> {
    if (!URL.canParse(url)) return 'must be an absolute http or https URL';
    const destination = await this.egress.destinationOf(url);
    if (!destination) return 'must be an http or https URL';
    if (new URL(url).username || new URL(url).password) return 'must not carry credentials';
    if (destination.refused)
      return `Porter will not send webhooks to ${destination.host}: ${destination.literal ? 'it is' : 'it resolves to'} a ${destination.refused} address`;
    return null;
  }
}
