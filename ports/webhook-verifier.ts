import type { Delivery, Verification } from '../domain/webhooks/delivery.js';

/**
 * How one webhook source proves a delivery is its own: Standard Webhooks for self-minted sources,
 * the provider's own signed headers for connector sources (GitHub, Stripe). Registered at wiring
 * time; an unregistered source has no verifier and every delivery to it is refused.
 */
export interface WebhookVerifier {
  readonly kind: string;
  /** Pure: checks the signature (in constant time) and the timestamp window against `now`. */
  verify(delivery: Delivery, now: Date): Verification;
}

/** The sources this deployment accepts, by name. */
export interface WebhookSources {
  get(source: string): WebhookVerifier | null;
  names(): ReadonlyArray<string>;
}
