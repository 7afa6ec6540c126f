import { randomUUID } from 'node:crypto';
import { standardWebhookHeaders, type StandardWebhookHeaders } from '../../adapters/webhooks/standard-webhooks-signature.js';

export interface SignWebhookOptions {
  /** The source's `whsec_…` secret, as given to `webhooks: { source: { kind: 'standard', secret } }`. */
  readonly secret: string;
  /** The exact bytes you will send: the signature covers them. */
  readonly body: string | Uint8Array;
  /** The delivery id (`webhook-id`); a fresh `msg_…` when absent. Porter drops a repeated id. */
  readonly id?: string;
  /** When it was sent; now when absent. Porter refuses a timestamp more than five minutes off its clock. */
  readonly timestamp?: Date;
}

/**
 * The Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`) of a
 * delivery, signed as a sender signs it, for testing a `kind: 'standard'` webhook source: POST the
 * same body to `{wire}/webhooks/{source}` with these headers and `content-type: application/json`.
 */
export function signWebhook(options: SignWebhookOptions): StandardWebhookHeaders {
  return standardWebhookHeaders(options.secret, options.id ?? `msg_${randomUUID()}`, options.timestamp ?? new Date(), options.body);
}
