import { createHash } from 'node:crypto';
import { withinClockWindow, type Delivery, type Verification } from '../../domain/webhooks/delivery.js';
import type { WebhookVerifier } from '../../ports/webhook-verifier.js';
import { RotatingSecrets } from './rotating-secrets.js';
import { headerOf } from './signature-bytes.js';

/**
 * Stripe webhooks, as Stripe documents them: `Stripe-Signature: t=<unix seconds>,v1=<hex>[,v1=…]`
 * where each v1 is the HMAC-SHA256 of `t.rawBody` keyed by the endpoint secret (`whsec_…`, used as
 * is); several v1 entries appear while Stripe rolls a secret. `t` must lie within five minutes.
 * The dedup key is the event id in the body (`evt_…`), which Stripe keeps across retries.
 */
export class StripeVerifier extends RotatingSecrets implements WebhookVerifier {
  readonly kind = 'stripe';

  constructor(secrets: string | ReadonlyArray<string>) {
    super(secrets, 'a Stripe webhook source needs its endpoint secret');
  }

  verify(delivery: Delivery, now: Date): Verification {
    const header = headerOf(delivery.headers, 'stripe-signature');
    if (!header) return { ok: false, reason: 'missing-headers' };
    const pairs = header.split(',').map((pair) => {
      const eq = pair.indexOf('=');
      return [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()] as const;
    });
    const timestamp = pairs.find(([key]) => key === 't')?.[1];
    const offered = pairs
      .filter(([key, value]) => key === 'v1' && /^[0-9a-f]{64}$/i.test(value))
      .map(([, value]) => Buffer.from(value, 'hex'));
    if (!timestamp || offered.length === 0) return { ok: false, reason: 'missing-headers' };
    if (!/^\d{1,12}$/.test(timestamp) || !withinClockWindow(Number(timestamp) * 1000, now.getTime()))
      return { ok: false, reason: 'stale-timestamp' };
    return this.signedByOne(offered, `${timestamp}.`, delivery.body)
      ? { ok: true, deliveryId: eventIdOf(delivery.body) ?? `t${timestamp}:${createHash('sha256').update(delivery.body).digest('hex')}` }
      : { ok: false, reason: 'bad-signature' };
  }
}

function eventIdOf(body: Uint8Array): string | null {
  try {
    const parsed = JSON.parse(Buffer.from(body).toString('utf8')) as { id?: unknown };
    return typeof parsed.id === 'string' && parsed.id.length > 0 && parsed.id.length <= 255 ? parsed.id : null;
  } catch {
    return null;
  }
}
