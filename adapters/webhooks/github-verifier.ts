import type { Delivery, Verification } from '../../domain/webhooks/delivery.js';
import type { WebhookVerifier } from '../../ports/webhook-verifier.js';
import { RotatingSecrets } from './rotating-secrets.js';
import { headerOf } from './signature-bytes.js';

/**
 * GitHub webhooks, as GitHub documents them: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the
 * raw body>` keyed by the webhook's secret, and the delivery's GUID in `X-GitHub-Delivery` (our
 * dedup key). GitHub signs no timestamp, so replay protection is the delivery-id ledger.
 * Several secrets are accepted while one is rotated.
 */
export class GitHubVerifier extends RotatingSecrets implements WebhookVerifier {
  readonly kind = 'github';

  constructor(secrets: string | ReadonlyArray<string>) {
    super(secrets, 'a GitHub webhook source needs its secret');
  }

  verify(delivery: Delivery): Verification {
    const signature = headerOf(delivery.headers, 'x-hub-signature-256');
    const deliveryId = headerOf(delivery.headers, 'x-github-delivery');
    if (!signature || !deliveryId) return { ok: false, reason: 'missing-headers' };
    const match = /^sha256=([0-9a-f]{64})$/i.exec(signature);
    if (!match) return { ok: false, reason: 'bad-signature' };
    return this.signedByOne([Buffer.from(match[1]!, 'hex')], delivery.body)
      ? { ok: true, deliveryId }
      : { ok: false, reason: 'bad-signature' };
  }
}
