import type { Delivery, Verification } from '../../domain/webhooks/delivery.js';
import type { WebhookVerifier } from '../../ports/webhook-verifier.js';
import { headerOf, hmacSha256, sameSignature } from './signature-bytes.js';

/**
 * GitHub webhooks, as GitHub documents them: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the
 * raw body>` keyed by the webhook's secret, and the delivery's GUID in `X-GitHub-Delivery` (our
 * dedup key). GitHub signs no timestamp, so replay protection is the delivery-id ledger.
 * Several secrets are accepted while one is rotated.
 */
export class GitHubVerifier implements WebhookVerifier {
  readonly kind = 'github';
  private readonly secrets: ReadonlyArray<string>;

  constructor(secrets: string | ReadonlyArray<string>) {
    this.secrets = typeof secrets === 'string' ? [secrets] : secrets;
    if (this.secrets.length === 0) throw new Error('a GitHub webhook source needs its secret');
  }

  verify(delivery: Delivery): Verification {
    const signature = headerOf(delivery.headers, 'x-hub-signature-256');
    const deliveryId = headerOf(delivery.headers, 'x-github-delivery');
    if (!signature || !deliveryId) return { ok: false, reason: 'missing-headers' };
    const match = /^sha256=([0-9a-f]{64})$/i.exec(signature);
    if (!match) return { ok: false, reason: 'bad-signature' };
    const offered = Buffer.from(match[1]!, 'hex');
    return this.secrets.some((secret) => sameSignature(offered, hmacSha256(secret, delivery.body)))
      ? { ok: true, deliveryId }
      : { ok: false, reason: 'bad-signature' };
  }
}
