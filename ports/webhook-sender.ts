/**
 * Outbound webhooks: a run's completion, signed per the Standard Webhooks specification and sent
 * through the egress guard.
 */

export interface OutboundWebhook {
  readonly url: string;
  /** The endpoint's `whsec_` secret. */
  readonly secret: string;
  /** `webhook-id`: the same on every attempt at one event. */
  readonly id: string;
  /** `webhook-timestamp`: when this attempt is made. */
  readonly timestamp: Date;
  /** The JSON body, sent (and signed) as these exact bytes. */
  readonly body: string;
}

/** What one attempt came to. */
export interface SendResult {
  /** The receiver's status, or null when none answered. */
  readonly status: number | null;
  /** Why no answer came, or what the answer's status means; null for a 2xx. */
  readonly error: string | null;
  readonly durationMs: number;
  /** False when trying again cannot help (the egress guard refused the address). */
  readonly retryable: boolean;
}

export interface WebhookSender {
  /** A fresh endpoint secret: `whsec_` and random bytes in base64, as Standard Webhooks mints them. */
  mintSecret(): string;
  /** Signs and sends one attempt; never rejects (a failure is a result). */
  send(webhook: OutboundWebhook): Promise<SendResult>;
  /** Why Porter would never send to this URL (not http(s), or an address the egress guard refuses), or null. */
  refusal(url: string): Promise<string | null>;
}

/**
 * Keeps a secret Porter must use again (a webhook signing secret) without storing it readable:
 * sealed with a key derived from the deployment's secret (authenticated encryption), bound to
 * what it belongs to, so a sealed value copied to another record does not open.
 */
export interface SecretBox {
  seal(secret: string, boundTo: string): string;
  /** The secret, or null when this deployment's keys cannot open it (PORTER_SECRET changed, or the value was moved). */
  open(sealed: string, boundTo: string): string | null;
}
