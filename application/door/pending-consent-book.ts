import { PendingConsent, type PendingConsentPrimitives } from '../../domain/door/authorization-request.js';
import { AtomicityUnavailable } from '../../domain/errors.js';
import type { RecordSet, StoredRecord } from '../../ports/store.js';

export interface LoadedPendingConsent {
  readonly pending: PendingConsent;
  readonly record: StoredRecord<PendingConsentPrimitives>;
}

/** Consent pages on screen, by the digest of their handle. Each is answered once (a claim). */
export class PendingConsentBook {
  constructor(private readonly records: RecordSet<PendingConsentPrimitives>) {}

  async open(pending: PendingConsent): Promise<void> {
    const props = pending.toPrimitives();
    await this.records.put({ id: props.id, data: props, refs: { subject: props.subject } });
  }

  async find(id: string): Promise<LoadedPendingConsent | null> {
    const record = await this.records.get(id);
    return record ? { pending: PendingConsent.fromPrimitives(record.data), record } : null;
  }

  /** True for the one answer that consumed the page. */
  async consume(loaded: LoadedPendingConsent): Promise<boolean> {
    if (!this.records.claim) throw new AtomicityUnavailable('atomic claims on consent pages');
    return this.records.claim(loaded.record);
  }
}
