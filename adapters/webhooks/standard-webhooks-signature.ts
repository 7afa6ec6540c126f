import { hmacSha256 } from './signature-bytes.js';

const SECRET_PREFIX = 'whsec_';

/** The three headers of a Standard Webhooks delivery. */
export interface StandardWebhookHeaders {
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
}

/**
 * The Standard Webhooks headers of one delivery: `webhook-timestamp` in seconds and
 * `webhook-signature` as `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`, keyed by the
 * secret's bytes (the base64 after `whsec_`). What Porter's sender sends and its verifier checks.
 */
export function standardWebhookHeaders(secret: string, id: string, at: Date, body: string | Uint8Array): StandardWebhookHeaders {
  const seconds = String(Math.floor(at.getTime() / 1000));
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const signature = hmacSha256(key, `${id}.${seconds}.`, body).toString('base64');
  return { 'webhook-id': id, 'webhook-timestamp': seconds, 'webhook-signature': `v1,${signature}` };
}
