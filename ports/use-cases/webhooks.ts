import type { UseCase } from '../use-case.js';

/** A delivery as the wire read it (the body within the cap). */
export interface ReceivedDelivery {
  readonly source: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: Uint8Array;
}

export type DeliveryAnswer = { readonly kind: 'accepted'; readonly runIds: ReadonlyArray<string> } | { readonly kind: 'deduplicated' };

export interface WebhookUseCases {
  /** Whether the source is registered (checked before the body is read). Audits a refusal. */
  readonly admitSource: UseCase<{ source: string }, void>;
  /** Audits the refusal of a body over the cap. */
  readonly refuseOversize: UseCase<{ source: string }, void>;
  readonly receiveDelivery: UseCase<ReceivedDelivery, DeliveryAnswer>;
}
