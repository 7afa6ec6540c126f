import { PendingConsent, type PendingConsentPrimitives } from '../../domain/door/authorization-request.js';
import type { RecordSet } from '../../ports/store.js';
import { AggregateBook, asPrimitives, type Loaded } from '../shared/aggregate-book.js';
import { pendingConsentShape } from './stored-shapes.js';

export type LoadedPendingConsent = Loaded<'pending', PendingConsent, PendingConsentPrimitives>;

/** Consent pages on screen, by the digest of their handle. Each is answered once (a claim). */
export class PendingConsentBook extends AggregateBook<'pending', PendingConsent, PendingConsentPrimitives> {
  constructor(records: RecordSet<PendingConsentPrimitives>) {
    super(records, {
      collection: 'door-pending-consents',
      key: 'pending',
      noun: 'Consent page',
      schema: pendingConsentShape,
      ...asPrimitives(PendingConsent),
      refsOf: (props) => ({ subject: props.subject }),
      ownerOf: (pending) => pending.toPrimitives().subject,
    });
  }

  /** True for the one answer that consumed the page. */
  consume(loaded: LoadedPendingConsent): Promise<boolean> {
    return this.consumeRecord(loaded);
  }
}
