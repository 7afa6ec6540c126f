import { randomBytes } from 'node:crypto';
import { withinClockWindow, type Delivery, type Verification } from '../../domain/webhooks/delivery.js';
import type { WebhookVerifier } from '../../ports/webhook-verifier.js';
import { headerOf, hmacSha256, sameSignature } from './signature-bytes.js';

const SECRET_PREFIX = 'whsec_';

/** A fresh Standard Webhooks secret: `whsec_` and 24 random bytes in base64, as the spec's tools mint them. */
export function mintStandardWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}

/**
 * Self-minted sources, per the Standard Webhooks specification: `webhook-signature` holds one or
 * more space-separated `v1,<base64 HMAC-SHA256>` over `webhook-id.webhook-timestamp.rawBody`, keyed
 * by the base64 secret after `whsec_`. Several signatures in the header (the sender mid-rotation)
 * and several secrets here (we are mid-rotation) are both accepted. `webhook-timestamp` must lie
 * within five minutes of our clock. Interoperability with the `standardwebhooks` library is proven
 * in test/adapters/webhooks.
 */
export class StandardWebhooksVerifier implements WebhookVerifier {
  readonly kind = 'standard';
  private readonly keys: ReadonlyArray<Buffer>;

  constructor(secrets: string | ReadonlyArray<string>) {
    const list = typeof secrets === 'string' ? [secrets] : secrets;
    this.keys = list.map((secret) => Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64'));
    if (this.keys.length === 0 || this.keys.some((key) => key.length < 16))
      throw new Error('a Standard Webhooks secret must hold at least 16 bytes');
  }

  verify(delivery: Delivery, now: Date): Verification {
    const id = headerOf(delivery.headers, 'webhook-id');
    const timestamp = headerOf(delivery.headers, 'webhook-timestamp');
    const signatures = headerOf(delivery.headers, 'webhook-signature');
    if (!id || !timestamp || !signatures) return { ok: false, reason: 'missing-headers' };
    if (!/^\d{1,12}$/.test(timestamp) || !withinClockWindow(Number(timestamp) * 1000, now.getTime()))
      return { ok: false, reason: 'stale-timestamp' };
    const offered = signatures
      .split(' ')
      .map((entry) => entry.split(','))
      .filter(([version, value]) => version === 'v1' && value)
      .map(([, value]) => Buffer.from(value!, 'base64'));
    for (const key of this.keys) {
      const expected = hmacSha256(key, `${id}.${timestamp}.`, delivery.body);
      if (offered.some((signature) => sameSignature(signature, expected))) return { ok: true, deliveryId: id };
    }
    return { ok: false, reason: 'bad-signature' };
  }
}
