import { PayloadTooLarge, Unauthorized } from '../errors.js';

/** Deliveries outside this window around our clock are refused (replays of old captures). */
export const WEBHOOK_CLOCK_WINDOW_MS = 5 * 60 * 1000;

/** Largest delivery body read; past it the intake stops reading. */
export const WEBHOOK_BODY_LIMIT_BYTES = 1024 * 1024;

/** Source names as they appear in `/webhooks/:source` and in `porter:webhook:<source>`. */
export const WEBHOOK_SOURCE_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** Why a delivery was refused; the audit event's outcome. */
export type DeliveryRefusal = 'unknown-source' | 'missing-headers' | 'bad-signature' | 'stale-timestamp' | 'too-large';

/** What a verifier concluded about one delivery. */
export type Verification =
  | { readonly ok: true; readonly deliveryId: string }
  | { readonly ok: false; readonly reason: Exclude<DeliveryRefusal, 'unknown-source' | 'too-large'> };

/** One delivery as received: the raw bytes are what was signed, so nothing re-encodes them. */
export interface Delivery {
  readonly source: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: Uint8Array;
}

/** A refused delivery. The wire answers 401 without saying which check failed. */
export class DeliveryRefused extends Unauthorized {
  constructor(readonly reason: DeliveryRefusal) {
    super('The webhook delivery could not be verified');
  }
}

export class DeliveryTooLarge extends PayloadTooLarge {
  constructor() {
    super(`A webhook delivery may be at most ${WEBHOOK_BODY_LIMIT_BYTES} bytes`, { limit: WEBHOOK_BODY_LIMIT_BYTES });
  }
}

/** True when `timestampMs` lies within the clock window around `nowMs`, either side. */
export function withinClockWindow(timestampMs: number, nowMs: number): boolean {
  return Number.isFinite(timestampMs) && Math.abs(nowMs - timestampMs) <= WEBHOOK_CLOCK_WINDOW_MS;
}
